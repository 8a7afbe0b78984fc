"""papi_report.tables: the tables as pandas DataFrames, what the page and the text show
of them (views), and catalog (loads the registered modules). Imports load/ only."""
