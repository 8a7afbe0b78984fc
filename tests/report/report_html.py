"""report_html.py: papi_report's page as data, for the checks: its run header
({data-field: text}) and its tables ({"table-<name>": [{column: cell text}]}), read with
the standard library's HTML parser (what a reader sees, not the CSV files)."""
from html.parser import HTMLParser


class _Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.header, self.tables = {}, {}
        self.h2_id = None
        self.table = None  # (name, columns, rows) being read
        self.cell = None   # text of the cell being read, or None
        self.field = None  # data-field of the run header's cell
        self.row = None
        self.in_head = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "h2":
            self.h2_id = a.get("id")
        elif tag == "table":
            name = a.get("id") or self.h2_id
            self.table = (name, [], [])
            self.h2_id = None
        elif tag == "thead":
            self.in_head = True
        elif tag == "tr" and self.table:
            self.row = []
        elif tag in ("td", "th") and self.table:
            self.cell = ""
            self.field = a.get("data-field")

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.table and self.cell is not None:
            text = self.cell.strip()
            if self.table[0] == "run-header":
                if tag == "td" and self.field:
                    self.header[self.field] = text
            elif self.in_head:
                self.table[1].append(text)
            else:
                self.row.append(text)
            self.cell = None
        elif tag == "thead":
            self.in_head = False
        elif tag == "tr" and self.table and self.row is not None:
            if self.row and self.table[0] != "run-header":
                self.table[2].append(dict(zip(self.table[1], self.row)))
            self.row = None
        elif tag == "table" and self.table:
            if self.table[0] and self.table[0] != "run-header":
                self.tables[self.table[0]] = self.table[2]
            self.table = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def read_page(text):
    """(header, tables) of a report.html."""
    p = _Page()
    p.feed(text)
    p.close()
    return p.header, p.tables
