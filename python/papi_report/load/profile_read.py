"""papi_report.load.profile_read: a profile file of papi_run --sample read a member at a
time (json_stream.py), the job profile's stacks (job_profile_RUNID.json: 10^5 and more
distinct stacks) kept as columns (Stacks) instead of a dict each: each stack is checked
against its schema as it is read, the rest of the document after. The load layer: no
pandas."""
from . import json_stream, schema_check
from .check import _load_json, forget, json_errors
from .input_file import open_text


class Stacks:
    """The job's stacks as columns: stack and where (str), samples, counts (a list per
    event); iterated, a dict per stack as the file has it (made as it is asked for)."""

    def __init__(self):
        self.stack, self.where, self.samples, self.counts = [], [], [], []
        self._places = {}  # where texts repeat (";;;" without debug information): one each

    def append(self, s):
        while len(self.counts) < len(s["counts"]):  # a column for a count no stack had yet
            self.counts.append([None] * len(self.stack))
        self.stack.append(s["stack"])
        self.where.append(self._places.setdefault(s["where"], s["where"]))
        self.samples.append(s["samples"])
        for k, col in enumerate(self.counts):
            col.append(s["counts"][k] if k < len(s["counts"]) else None)

    @classmethod
    def of(cls, stacks):
        """The columns of a list of stacks (a file read whole)."""
        st = cls()
        for s in stacks:
            st.append(s)
        return st

    def __len__(self):
        return len(self.stack)

    def counts_of(self, i):
        return [col[i] for col in self.counts if col[i] is not None]

    def __getitem__(self, i):
        return {"stack": self.stack[i], "where": self.where[i], "samples": self.samples[i],
                "counts": self.counts_of(i)}

    def __iter__(self):
        return (self[i] for i in range(len(self)))


def _constant(name):  # NaN, Infinity: read as check._load_json reads them (the schema judges)
    return float(name)


def load(path):
    """(document, first bad stack as (index, stack) or None) of the profile at path; a job
    profile's stacks as Stacks, each checked (the first that breaks its schema kept for
    the caller to say). MalformedInput / ReportError as check.json_errors says them."""
    doc, bad = {}, None
    ok = schema_check.part_check("profile_job", "properties", "stacks", "items")
    with json_errors(path):
        try:
            with open_text(path) as f:
                for k, v in json_stream.members(f, ("stacks",), _constant):
                    if k == "stacks" and hasattr(v, "__next__"):  # an array, streamed
                        if doc.get("kind") != "profile_job" or ok is None:
                            v = list(v)  # a process's profile (frame indices): kept whole
                        else:
                            st = Stacks()
                            for i, s in enumerate(v):
                                if not ok(s):
                                    bad = bad or (i, s)
                                elif bad is None:
                                    st.append(s)
                            v = st
                    doc[k] = v
        except json_stream.NotAnObject:
            whole = _load_json(path)  # a list or a number: said as before
            forget(whole)  # not held by check's note of clean documents
            return whole, None
    return doc, bad


def check(path, doc, bad):
    """None when the document follows its schema, else one line (the file, the JSON path
    and the rule): a job's stacks were checked one by one (bad: the first that broke
    it), the rest here as a whole."""
    if isinstance(doc.get("stacks"), Stacks):
        doc = dict(doc, stacks=[])
    return schema_check.check_streamed(path, doc, doc["kind"], "stacks", bad)
