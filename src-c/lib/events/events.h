/* events.h: event codes, native codes routed to their component and presets: what the
 * layers above use of events/ (event_native.h, preset_events.h, preset_tables.h). No
 * file of events/ includes it: each includes the headers of the pieces it uses, so that
 * its files form no cycle (layers.map: acyclic). */
#ifndef EVENTS_H
#define EVENTS_H

#include "event_native.h"
#include "preset_events.h"
#include "preset_tables.h"

#endif
