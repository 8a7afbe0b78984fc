/* eventset.h: event sets and counting, what the layers above use of core/: the types
 * (eventset_types.h) and the calls (eventset_handles.h, eventset_events.h,
 * eventset_table.h, counting.h). No file of core/ includes it: each includes the headers of
 * the calls it uses, so that its files form no cycle (layers.map: acyclic). */
#ifndef EVENTSET_H
#define EVENTSET_H

#include "counting.h"
#include "eventset_events.h"
#include "eventset_handles.h"
#include "eventset_table.h"
#include "eventset_types.h"
#include "events.h"

#endif
