"""papi_report.load: the input files read and checked (JSON Schemas, bounded reading,
the values a schema cannot refuse), the event logs and profiles, and the registry (a
leaf). The lowest layer: imports nothing of papi_report above it, no pandas."""
