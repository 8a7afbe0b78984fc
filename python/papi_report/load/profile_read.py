"""papi_report.load.profile_read: a profile file of papi_run --sample read a member at a
time (json_stream.py), the job profile's stacks (job_profile_RUNID.json: 10^5 and more
distinct stacks) kept as columns (Stacks) instead of a dict each: each stack is checked
against its schema as it is read, the rest of the document after. The load layer: no
pandas."""
from . import json_stream, schema_check, schema_fast
from .check import MalformedInput, ReportError, _load_json, forget
from .input_file import InputRefused, open_text


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


_item_check = []


def _stack_ok():
    """check(stack) -> bool of profile_job.schema.json's stacks' items; None without it."""
    if not _item_check:
        try:
            whole = schema_check.schemas()
            item = whole["profile_job"]["properties"]["stacks"]["items"]
            _item_check.append(schema_fast.compile_in(whole, "profile_job", item))
        except (schema_check.SchemaUnavailable, KeyError, schema_fast.Unsupported):
            _item_check.append(None)
    return _item_check[0]


def _constant(name):  # NaN, Infinity: read as check._load_json reads them (the schema judges)
    return float(name)


def load(path):
    """(document, first bad stack as (index, stack) or None) of the profile at path; a job
    profile's stacks as Stacks, each checked (the first that breaks its schema kept for
    the caller to say). MalformedInput / ReportError as check._load_json raises them."""
    doc, bad, ok = {}, None, _stack_ok()
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
        forget(whole)
        return whole, None
    except OSError as e:
        raise ReportError("cannot read %s: %s" % (path, e.strerror))
    except InputRefused as e:
        raise MalformedInput(str(e))
    except (ValueError, RecursionError, UnicodeDecodeError) as e:
        raise MalformedInput("%s is not JSON: %s" % (path, e))
    return doc, bad


def check(path, doc, bad):
    """None when the document follows its schema, else one line (the file, the JSON path
    and the rule): a job's stacks were checked one by one (bad: the first that broke
    it), the rest here as a whole."""
    stacks = doc.get("stacks")
    if isinstance(stacks, Stacks):
        doc = dict(doc, stacks=[bad[1]] if bad else [])
    why = schema_check.check_document(path, doc, doc["kind"])
    if why and bad:
        why = why.replace("$.stacks[0]", "$.stacks[%d]" % bad[0], 1)
    return why
