"""papi_report.figures: the pictures (matplotlib, inline SVG), each drawn from the tables
alone. Imports tables/ and load/."""
