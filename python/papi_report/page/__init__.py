"""papi_report.page: what papi_report writes: the HTML page, the text report, --compare
and --merge-trace. The top layer."""
