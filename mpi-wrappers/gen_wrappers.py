#!/usr/bin/env python3
"""Generate the PMPI wrappers from mpi_calls.list (the single source).

Writes <out>/papi_mpi_calls.h (call ids, kinds, the wait kinds of wait_kinds.list),
<out>/papi_mpi_calls.c (the call table: name, kind, a collective's wait kind; the wait
kinds' names; a leaf the report code reads) and <out>/papi_mpi_wrappers.c:
  * one C wrapper MPI_<X> per non-"hand" call: bytes from the list's expressions, the
    caller's return address as the call site;
  * Fortran forwarders mpi_<x>_ (mpif.h, `use mpi`), mpi_<x>_f08_ and mpi_<x>_f08ts_
    (`use mpi_f08`): they record the Fortran caller's return address (the user's line,
    not a line in libmpichfort) and forward to libmpichfort with the same arguments (C
    arguments + ierror, all by reference or descriptor). When the binding reaches our C
    wrapper, that wrapper counts the call with its bytes at the Fortran site; when it
    enters PMPI_* directly (most of MPICH's f08 bindings), the forwarder counts calls and
    time itself (bytes 0: those bindings are the calls without a buffer). String
    arguments add their hidden lengths;
  * the mpi_<x>_f08_ forwarders with hooks for the hand-written calls.

One build per MPI: `gen_wrappers.py probe LIST OUTDIR CC CFLAGS...` (run at configure
time) compiles one file that takes the address of every listed PMPI_* function with the
MPI's mpi.h and writes OUTDIR/undeclared.txt: the calls that MPI does not declare (Open
MPI 4.1 is MPI 3.1: no sessions, partitioned or persistent collectives, no
MPI_Isendrecv). `gen_wrappers.py LIST OUTDIR [UNDECLARED]` then emits only the others.
The probe prints one line per call family saying what this MPI lacks.

`gen_wrappers.py python LIST OUT.py` writes papi_report's copy of the rules both sides
apply (the wait kinds, each collective's wait kind: papi_report/load/mpi_rules.py), for every
listed call, with or without an MPI, and of the event log's record kinds, flags and the
wait rules' constants, read from event_log/event_record.h and waits/wait_rules.h
(papi_report/load/event_record.py)."""
import os
import pprint
import re
import subprocess
import sys

KINDS = {"hand": "PMPI_KIND_HAND", "p2p": "PMPI_KIND_P2P", "coll": "PMPI_KIND_COLL",
         "sync": "PMPI_KIND_SYNC", "misc": "PMPI_KIND_MISC", "comm": "PMPI_KIND_COMM",
         "rma": "PMPI_KIND_RMA", "io": "PMPI_KIND_IO"}
F08_HOOKS = {"MPI_Init": "after_init", "MPI_Init_thread": "after_init",
             "MPI_Finalize": "before_finalize", "MPI_Abort": "before_abort",
             "MPI_Pcontrol": "pcontrol"}


def list_rows(path):
    """(line number, fields) of each row of a ' | '-separated list file (mpi_calls.list,
    wait_kinds.list), blank lines and # comments skipped."""
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if line and not line.startswith("#"):
                yield lineno, [x.strip() for x in line.split(" | ")]


def parse(path):
    calls = []
    kinds, waits_path = wait_list(path)
    wait_names = [k["name"] for k in kinds]
    for lineno, fields in list_rows(path):
        if len(fields) != 7 or fields[0] not in KINDS:
            sys.exit(f"{path}:{lineno}: expected 7 fields "
                     "'kind | send | recv | peer | wait | f08 | proto'")
        kind, send, recv, peer, wait, f08, proto = fields
        m = re.match(r"int (MPI_\w+)\((.*)\)$", proto)
        if not m:
            sys.exit(f"{path}:{lineno}: cannot parse prototype: {proto}")
        name, params = m.group(1), m.group(2)
        args = []
        if params not in ("void",):
            for p in params.split(","):
                p = p.strip()
                if p == "...":
                    continue
                a = re.search(r"(\w+)\s*(\[\d*\])*$", p)
                args.append(a.group(1))

        def val(field, key):
            if field == "-":
                return None
            if not field.startswith(key + "="):
                sys.exit(f"{path}:{lineno}: field '{field}' should start with {key}=")
            return field[len(key) + 1:]
        if any(c["name"] == name for c in calls):
            sys.exit(f"{path}:{lineno}: {name} listed twice")
        wait = val(wait, "wait")
        if wait and (kind != "coll" or wait not in wait_names):
            sys.exit(f"{path}:{lineno}: wait={wait}: only a collective has one, a kind of "
                     f"{os.path.basename(waits_path)} ({', '.join(wait_names)})")
        calls.append(dict(kind=kind, name=name, params=params, args=args,
                          send=val(send, "send"), recv=val(recv, "recv"),
                          peer=val(peer, "peer"), wait=wait, f08=val(f08, "f08")))
    return calls


WAITS_FOR = {"all": "PMPI_ARR_ALL", "root": "PMPI_ARR_ROOT", "nonroot": "PMPI_ARR_NONROOT",
             "send": "PMPI_ARR_P2P", "receive": "PMPI_ARR_P2P"}
#: The point-to-point moments: one kind each (wait_rules.c has one rule for each).
P2P_WAITS = ("send", "receive")


def wait_list(list_path):
    """The wait kinds of wait_kinds.list (beside mpi_calls.list), in the report's order:
    [{name, waits_for, banner, label, colour}]."""
    path = os.path.join(os.path.dirname(os.path.abspath(list_path)), "wait_kinds.list")
    kinds = []
    for lineno, fields in list_rows(path):
        if len(fields) != 5 or fields[1] not in WAITS_FOR or \
                not re.fullmatch(r"[a-z][a-z_]*", fields[0]) or \
                not re.fullmatch(r"#[0-9a-f]{6}", fields[4]):
            sys.exit(f"{path}:{lineno}: expected 'name | {'/'.join(WAITS_FOR)} | banner | "
                     "label | #rrggbb'")
        if any(k["name"] == fields[0] for k in kinds):
            sys.exit(f"{path}:{lineno}: {fields[0]} listed twice")
        if fields[1] in P2P_WAITS and any(k["waits_for"] == fields[1] for k in kinds):
            sys.exit(f"{path}:{lineno}: a second kind waiting for the {fields[1]}")
        kinds.append(dict(zip(("name", "waits_for", "banner", "label", "colour"), fields)))
    return kinds, path


def synchronous(name):
    """Whether a send call waits for its receive whatever its size (Ssend, Issend,
    Ssend_init: logged with PMPI_EVF_SYNC)."""
    return "ssend" in name.lower()  # MPI_Issend's "ssend" is lower case


def wait_enum(k):
    """The C enumerator of a wait kind: PMPI_WAIT_LATE_SENDER, PMPI_WAIT_NXN."""
    return "PMPI_WAIT_" + re.sub(r"^WAIT_", "", k["name"].upper())


FAMILIES = [  # (family, test on the call's name and parameters), first match wins
    ("sessions", lambda c: "MPI_Session" in c["params"] or c["name"].startswith("MPI_Session")),
    ("partitioned", lambda c: re.match(r"MPI_(Psend_init|Precv_init|Pready|Parrived)", c["name"])),
    ("Isendrecv", lambda c: c["name"].startswith("MPI_Isendrecv")),
    ("persistent collectives", lambda c: c["kind"] == "coll" and c["name"].endswith("_init")),
    ("nonblocking collectives", lambda c: c["kind"] == "coll" and re.match(r"MPI_I[a-z]", c["name"])),
    ("RMA", lambda c: c["kind"] == "rma"),
    ("MPI-IO", lambda c: c["kind"] == "io"),
    ("other", lambda c: True),
]


def family(c):
    return next(name for name, test in FAMILIES if test(c))


def probe(calls, outdir, cc, cflags):
    """Which listed calls the MPI's mpi.h declares: one compile, every undeclared
    PMPI_* named by the compiler's diagnostics."""
    src = os.path.join(outdir, "papi_mpi_probe.c")
    with open(src, "w", encoding="utf-8") as f:
        f.write("/* Generated by gen_wrappers.py probe: which PMPI_* this mpi.h declares. */\n")
        f.write("#include <mpi.h>\n")
        for c in calls:
            f.write(f"void *probe_{c['name']} = (void *)&P{c['name']};\n")
    ver = subprocess.run([cc, "--version"], capture_output=True, text=True, check=False).stdout
    unlimited = "-ferror-limit=0" if "clang" in ver else "-fmax-errors=0"
    r = subprocess.run([cc, "-fsyntax-only", unlimited, *cflags, src],
                       capture_output=True, text=True, check=False)
    missing = set(re.findall(r"\b(?:probe_)?P(MPI_\w+)\W+undeclared", r.stderr))
    missing |= set(re.findall(r"use of undeclared identifier 'P(MPI_\w+)'", r.stderr))
    if r.returncode != 0 and not missing:
        sys.exit(f"probe: {cc} cannot compile with this mpi.h:\n{r.stderr[:2000]}")
    with open(os.path.join(outdir, "undeclared.txt"), "w", encoding="utf-8") as f:
        for c in calls:
            if c["name"] in missing:
                f.write(c["name"] + "\n")
    by_family = {}
    for c in calls:
        by_family.setdefault(family(c), [0, []])
        by_family[family(c)][0] += 1
        if c["name"] in missing:
            by_family[family(c)][1].append(c["name"])
    print(f"{len(calls) - len(missing)} of {len(calls)} calls declared by this MPI")
    for fam, (n, miss) in by_family.items():
        state = f"all {n}" if not miss else f"none of {n}" if len(miss) == n else \
            f"{n - len(miss)} of {n} (not declared: {', '.join(miss)})"
        print(f"  {fam}: {state}")


def gen_header(calls, kinds):
    out = ["/* Generated by gen_wrappers.py from mpi_calls.list and wait_kinds.list: do not "
           "edit. */", "#ifndef PAPI_MPI_CALLS_H", "#define PAPI_MPI_CALLS_H", "",
           "enum pmpi_call_id {"]
    for c in calls:
        out.append(f"    PMPI_ID_{c['name']},")
    out += ["    PMPI_NCALLS", "};", "", "enum pmpi_kind {",
            "    " + ", ".join(KINDS.values()), "};", "",
            "/* Why MPI time was lost (wait_kinds.list), in the report's order. */",
            "enum pmpi_wait_kind {"] + [f"    {wait_enum(k)}," for k in kinds] + \
        ["    PMPI_WAIT_KINDS", "};",
         "/* What a wait kind waits for: the last arrival of all ranks, the root's, the last "
         "non-root's (wait_states.c's indices), a message's partner. */",
         "enum pmpi_wait_arrival { " + ", ".join(dict.fromkeys(WAITS_FOR.values())) + " };",
         "/* The report's keys (\"late_sender_s\" ...), the stdout line's words, what each "
         "waits for. */",
         "extern const char *const pmpi_wait_names[PMPI_WAIT_KINDS];",
         "extern const char *const pmpi_wait_banner[PMPI_WAIT_KINDS];",
         "extern const int pmpi_wait_arrival[PMPI_WAIT_KINDS];", "",
         "/* A call: its name, kind and, for a collective, its wait kind (-1: none). */",
         "struct pmpi_call_info {", "    const char *name;", "    int kind;", "    int wait;",
         "};", "extern const struct pmpi_call_info pmpi_calls[PMPI_NCALLS];", "", "#endif", ""]
    return "\n".join(out)


def c_wrapper(c):
    a = ", ".join(c["args"])
    # The sampling span (pmpi_sample_enter/leave) covers the whole wrapper: a sample in
    # its bookkeeping is time the program spent in the call, not in a wrapper internal.
    out = [f"int {c['name']}({c['params']})", "{",
           "    void *site_ = pmpi_site(__builtin_return_address(0));",
           f"    pmpi_sample_enter(PMPI_ID_{c['name']}, site_);"]
    if c["send"] or c["recv"]:
        # a persistent point-to-point request's are filed whether or not recording is on
        on = "" if partners(c) != (None, None) and persistent(c) else "pmpi_active() ? "
        off = "" if not on else " : 0"
        out.append(f"    long long sent_ = {on}({c['send'] or '0'}){off};")
        out.append(f"    long long recvd_ = {on}({c['recv'] or '0'}){off};")
        if c["peer"]:
            out.append(f"    if (({c['peer']}) == MPI_PROC_NULL)")
            out.append("        sent_ = recvd_ = 0; /* MPI_PROC_NULL: no data moves */")
    else:
        out.append("    const long long sent_ = 0, recvd_ = 0;")
    out += ["    struct pmpi_frame f_;", "    pmpi_enter(&f_);",
            f"    int rc_ = P{c['name']}({a});"]
    dest, source = partners(c)
    leave = f"pmpi_leave(&f_, PMPI_ID_{c['name']}, sent_, recvd_, site_)"
    before, logged = event_log(c, dest, source)
    if before:
        if "*st_" in before:
            a = a.replace("status", "(pmpi_log.on ? st_ : status)")
        if "ast_" in before:
            a = ", ".join("ast_" if x == "array_of_statuses" else x for x in c["args"])
        out[out.index(f"    int rc_ = P{c['name']}({', '.join(c['args'])});")] = \
            before + f"    int rc_ = P{c['name']}({a});"
    out.append(f"    long long dt_ = {leave};")
    if (dest or source) and persistent(c):
        # A persistent request: its partner, tag and the bytes of one start are filed now
        # and read at each MPI_Start by the partners and the event log
        # (persistent_requests.c), whether or not recording is on now.
        out += ["    if (rc_ == MPI_SUCCESS)",
                f"        pmpi_persist_file(*request, comm, {dest or '-1'}, {source or '-1'}, tag, "
                f"sent_, recvd_, {persist_flags(c, dest)});"]
    elif dest or source:
        # Point-to-point: the partners (ranks of comm) with bytes and time (traffic.c).
        out += ["    if (dt_ && rc_ == MPI_SUCCESS)",
                f"        pmpi_partner_add(comm, {dest or '-1'}, {source or '-1'}, sent_, recvd_, dt_);"]
    elif c["name"] in STARTS:
        out += start_lines(c, f"pmpi_persist_started(&st_, {STARTS[c['name']]});",
                           "    if (dt_ && rc_ == MPI_SUCCESS) {", "site_")
    elif persistent(c) and "request" in c["args"]:  # persistent collectives: no partner
        out += ["    if (rc_ == MPI_SUCCESS)", "        pmpi_persist_forget(*request);"]
    elif c["name"] == "MPI_Request_free":
        out[out.index(f"    int rc_ = P{c['name']}({a});")] = \
            "    MPI_Request req_ = request ? *request : MPI_REQUEST_NULL;\n" \
            f"    int rc_ = P{c['name']}({a});"
        out += ["    if (rc_ == MPI_SUCCESS)", "        pmpi_persist_forget(req_);"]
    if logged:
        out += ["    if (dt_ && pmpi_log.on && rc_ == MPI_SUCCESS) {"] + logged + ["    }"]
    if "hsts_" in before:  # only a heap array (event_log.h): no call on the common path
        out += ["    if (hsts_)", "        free(hsts_);"]
    out += ["    pmpi_sample_leave();", "    return rc_;", "}", ""]
    return out


# The Wait/Test calls whose completed requests the event log matches to the calls that
# made them: (requests before the call as C expressions, how many, statuses, how many to
# log: the requests, or -1 for a Test not done yet, a poll: a thread's consecutive polls
# are folded into one record (event_log.h); a call on MPI_REQUEST_NULL handles is a CALL).
WAITS = {
    "MPI_Wait": ("request", "1", "st_", "nrq_"),
    "MPI_Test": ("request", "1", "st_", "*flag ? nrq_ : -1"),
    "MPI_Waitall": ("array_of_requests", "count",
                    "ast_ == MPI_STATUSES_IGNORE ? NULL : ast_", "nrq_"),
    "MPI_Testall": ("array_of_requests", "count",
                    "ast_ == MPI_STATUSES_IGNORE ? NULL : ast_", "*flag ? nrq_ : -1"),
}


# The forms that complete some of their requests: (requests, how many, the completed
# ones' count: 0 when every handle was MPI_REQUEST_NULL, -1 for a poll not done; their
# indices, their statuses).
WAITS_SOME = {
    "MPI_Waitany": ("array_of_requests", "count", "*indx == MPI_UNDEFINED ? 0 : 1", "indx", "st_"),
    "MPI_Testany": ("array_of_requests", "count",
                    "!*flag ? -1 : *indx == MPI_UNDEFINED ? 0 : 1", "indx", "st_"),
    "MPI_Waitsome": ("array_of_requests", "incount",
                     "*outcount == MPI_UNDEFINED ? 0 : *outcount", "array_of_indices",
                     "ast_ == MPI_STATUSES_IGNORE ? NULL : ast_"),
    "MPI_Testsome": ("array_of_requests", "incount",
                     "*outcount == MPI_UNDEFINED ? 0 : *outcount == 0 ? -1 : *outcount",
                     "array_of_indices", "ast_ == MPI_STATUSES_IGNORE ? NULL : ast_"),
}


def requests_before(arr, n):
    """Lines keeping the request handles a Wait/Test form may complete (gone after it),
    while the log records (none read otherwise)."""
    return (f"    uint64_t rq_[PMPI_LOG_WAIT_MAX];\n"
            f"    int nrq_ = !pmpi_log.on ? 0 : ({n}) < PMPI_LOG_WAIT_MAX ? ({n}) : PMPI_LOG_WAIT_MAX;\n"
            f"    for (int i_ = 0; i_ < nrq_; i_++)\n"
            f"        rq_[i_] = pmpi_req_key({arr}[i_]);\n")


# An ignored status is replaced by one of ours: an MPI_ANY_SOURCE or MPI_ANY_TAG receive
# learns its sender there (the program sees no change).
STATUS_BEFORE = "    MPI_Status sst_, *st_ = status == MPI_STATUS_IGNORE ? &sst_ : status;\n"


def statuses_before(c, n):
    """The same for an array of statuses (MPI_STATUSES_IGNORE): ours while recording, on
    the stack up to PMPI_LOG_WAIT_MAX, else on the heap (hsts_, freed after the call)."""
    if "array_of_statuses" not in c["args"]:
        return ""
    return ("    MPI_Status ssts_[PMPI_LOG_WAIT_MAX];\n    void *hsts_;\n"
            f"    MPI_Status *ast_ = pmpi_log_statuses(array_of_statuses, {n}, ssts_, "
            "PMPI_LOG_WAIT_MAX, &hsts_);\n")


def event_log(c, dest, source):
    """The event log's record(s) of a call (event_log.h), made after it returned: lines
    before the call (the request handles a Wait completes are gone after it) and the
    lines recording it. Point-to-point calls name partner and tag, collectives their
    root, I-calls the request they made, Wait/Test forms the requests they completed."""
    cid, t = f"PMPI_ID_{c['name']}", "f_.t0, dt_, site_"
    if c["name"] in WAITS:
        arr, n, st, logged = WAITS[c["name"]]
        before = requests_before(arr, n) + (STATUS_BEFORE if "status" in c["args"] else "") + \
            statuses_before(c, n)
        return before, [f"        pmpi_log_wait({cid}, {t}, {logged}, rq_, {st});"]
    if c["name"] in WAITS_SOME:
        arr, n, ndone, idx, st = WAITS_SOME[c["name"]]
        before = requests_before(arr, n) + (STATUS_BEFORE if "status" in c["args"] else "") + \
            statuses_before(c, n)
        return before, [f"        pmpi_log_wait_some({cid}, {t}, nrq_, rq_, {ndone}, {idx}, {st});"]
    if c["name"] in STARTS:  # logged with the partners (start_lines)
        return "", []
    if (dest or source) and persistent(c) and not c["name"].startswith("MPI_P"):
        # a persistent send or receive: filed (c_wrapper), logged at each start
        return "", [f"        pmpi_log_call({cid}, PMPI_EV_CALL, {t}, MPI_COMM_NULL, -1, -1, 0, 0, 0);"]
    req = "pmpi_req_key(*request)" if "request" in c["args"] and not persistent(c) else "0"
    if (dest or source) and not persistent(c):
        out = []
        stag = "sendtag" if "sendtag" in c["args"] else "tag"
        rtag = "recvtag" if "recvtag" in c["args"] else "tag"
        if dest and stag in c["args"]:
            sync = "PMPI_EVF_SYNC" if synchronous(c["name"]) else "0"
            out.append(f"        pmpi_log_call({cid}, PMPI_EV_SEND, {t}, comm, {dest}, {stag}, "
                       f"sent_, {req}, {sync});")
        if source and rtag in c["args"]:
            tag = rtag
            if "status" in c["args"]:
                tag = f"({rtag} == MPI_ANY_TAG && status != MPI_STATUS_IGNORE ? status->MPI_TAG : {rtag})"
            out.append(f"        pmpi_log_call({cid}, PMPI_EV_RECV, {t}, comm, {source}, {tag}, "
                       f"recvd_, {req}, 0);")
            if len(out) == 2:  # a Sendrecv: both records in one claim
                out = [f"        pmpi_log_sendrecv({cid}, {t}, comm, {dest}, {stag}, sent_, "
                       f"{source}, {tag}, recvd_, {req});"]
        if out:
            return "", out
    if c["kind"] == "coll" and "comm" in c["args"] and not persistent(c):
        root = "root" if "root" in c["args"] else "PMPI_LOG_NO_ROOT"
        return "", [f"        pmpi_log_call({cid}, PMPI_EV_COLL, {t}, comm, {root}, -1, "
                    f"sent_ + recvd_, {req}, 0);"]
    return "", [f"        pmpi_log_call({cid}, PMPI_EV_CALL, {t}, MPI_COMM_NULL, -1, -1, "
                "sent_ + recvd_, 0, 0);"]


# The calls that start persistent requests: the requests they start (traffic.c).
STARTS = {"MPI_Start": "1, request", "MPI_Startall": "count, array_of_requests"}


def start_lines(c, lookup, cond, site):
    """A start's requests looked up once in the table of persistent requests (lookup:
    the C statement filling st_) and handed to the partners (traffic.c) and the event log
    (event_log.c; no persistent send or receive: a CALL record); cond opens the block."""
    cid, t = f"PMPI_ID_{c['name']}", f"f_.t0, dt_, {site}"
    return [cond, "        struct pmpi_started st_;", f"        {lookup}",
            "        pmpi_persistent_start(&st_, dt_);",
            f"        if (pmpi_log.on && !pmpi_log_start({cid}, {t}, &st_))",
            f"            pmpi_log_call({cid}, PMPI_EV_CALL, {t}, MPI_COMM_NULL, -1, -1, 0, 0, 0);",
            "        pmpi_persist_started_end(&st_);", "    }"]


def persistent(c):
    """A call that makes a persistent (or partitioned) request, started by MPI_Start."""
    return c["name"].endswith("_init") and c["kind"] in ("p2p", "coll") and "request" in c["args"]


def persist_flags(c, dest):
    """What a persistent point-to-point request is (persistent_requests.h)."""
    flags = ["PMPI_PERSIST_SEND" if dest else "PMPI_PERSIST_RECV"]
    if synchronous(c["name"]):
        flags.append("PMPI_PERSIST_SYNC")
    if c["name"].startswith("MPI_P"):  # partitioned
        flags.append("PMPI_PERSIST_PARTITIONED")
    return " | ".join(flags)


def partners(c):
    """The C expressions of a point-to-point call's destination and source (None where
    it has none); a receive from MPI_ANY_SOURCE takes the source from its status."""
    if c["kind"] != "p2p" or "comm" not in c["args"]:
        return None, None
    dest = "dest" if "dest" in c["args"] else None
    source = "source" if "source" in c["args"] else None
    if dest and not source and c["recv"] and not c["send"]:  # MPI_Precv_init names it dest
        dest, source = None, dest
    if source and "status" in c["args"]:
        source = ("(source == MPI_ANY_SOURCE && status != MPI_STATUS_IGNORE && rc_ == MPI_SUCCESS "
                  "? status->MPI_SOURCE : source)")
    return dest, source


def lookup(sym, n):
    return [f"    typedef void (*fn_t)({', '.join(['void *'] * n)});",
            "    static _Atomic fn_t next_;",
            "    fn_t real_ = atomic_load_explicit(&next_, memory_order_relaxed);",
            "    if (!real_) {",
            f"        real_ = (fn_t)pmpi_next_symbol(\"{sym}\");",
            "        atomic_store_explicit(&next_, real_, memory_order_relaxed);",
            "    }"]


# Fortran handles (MPI_Fint, or TYPE(MPI_X) holding one) to C handles.
F2C = {"MPI_Datatype": "PMPI_Type_f2c", "MPI_Comm": "PMPI_Comm_f2c", "MPI_Win": "PMPI_Win_f2c",
       "MPI_File": "PMPI_File_f2c", "MPI_Op": "PMPI_Op_f2c", "MPI_Info": "PMPI_Info_f2c",
       "MPI_Group": "PMPI_Group_f2c", "MPI_Request": "PMPI_Request_f2c",
       "MPI_Message": "PMPI_Message_f2c"}
SCALARS = ("int", "MPI_Count", "MPI_Aint", "MPI_Offset")


def fortran_bytes(c):
    """A function computing the call's bytes from the Fortran arguments (all passed by
    reference), for bindings that enter PMPI_* directly (Open MPI's): handles through
    PMPI_*_f2c, integers read, arrays and buffers as they are (arrays of datatype
    handles cannot be converted in place: those calls count 0). None when the call
    moves no bytes."""
    if not (c["send"] or c["recv"]):
        return None, []
    out = [f"static void fbytes_{c['name']}(void **a, long long *sent, long long *recvd)",
           "{"]
    used = " ".join(x for x in (c["send"], c["recv"], c["peer"]) if x)
    for i, p in enumerate(p.strip() for p in c["params"].split(",")):
        name = c["args"][i]
        if not re.search(rf"\b{name}\b", used):
            continue
        base = re.sub(r"\b(const|volatile)\b", "", p).replace(name, "").strip()
        if base in SCALARS:
            decl = f"{base} {name} = *(const {base} *)a[{i}];"
        elif base in F2C:
            decl = f"{base} {name} = {F2C[base]}(*(const MPI_Fint *)a[{i}]);"
        elif base.endswith("[]") or base.endswith("*"):
            elem = base.rstrip("[]* ").strip()
            if elem in F2C:  # an array of Fortran handles: not converted
                decl = f"const {elem} *{name} = NULL;"
            else:
                decl = f"const {elem} *{name} = (const {elem} *)a[{i}];"
        else:
            return None, []
        out.append(f"    {decl}")
    out.append(f"    *sent = {c['send'] or '0'};")
    out.append(f"    *recvd = {c['recv'] or '0'};")
    if c["peer"]:
        out.append(f"    if (({c['peer']}) == MPI_PROC_NULL)")
        out.append("        *sent = *recvd = 0;")
    out += ["}", ""]
    return f"fbytes_{c['name']}", out


def fortran_arg(c, name, f08):
    """The C value of the Fortran argument `name` (passed by reference), or None."""
    if name not in c["args"]:
        return None
    i = c["args"].index(name)
    if name == "comm":
        return f"PMPI_Comm_f2c(*(const MPI_Fint *)a{i})"
    if name == "status":
        return f"a{i}"
    return f"*(const int *)a{i}"


def fortran_traffic(c, f08):
    """For bindings that enter PMPI_* directly (Open MPI's), what the C wrapper records
    besides calls and bytes: the point-to-point partners, the persistent requests filed
    at *_init, started and freed (traffic.c). Returns (lines before the call, lines
    after it); `bypass_` says the C wrapper was not reached, `dt_` is the call's time."""
    ierr = f"a{len(c['args'])}"
    ok = f"pmpi_fortran_ok({ierr})"
    dest, source = partners(c)
    if dest or source:
        comm = fortran_arg(c, "comm", f08)
        d = fortran_arg(c, dest, f08) if dest else "-1"
        if source:
            s = fortran_arg(c, "source" if "source" in c["args"] else "dest", f08)
            if "status" in c["args"]:
                s = f"pmpi_fortran_source({s}, {fortran_arg(c, 'status', f08)}, {int(f08)})"
        else:
            s = "-1"
        if persistent(c):  # filed for the partners and the event log alike
            req = f"a{c['args'].index('request')}"
            return [], [f"    if (bypass_ && {ok})",
                        f"        pmpi_persist_file(PMPI_Request_f2c(*(const MPI_Fint *){req}), "
                        f"{comm}, {d}, {s}, {fortran_arg(c, 'tag', f08)}, fsent_, frecvd_, "
                        f"{persist_flags(c, dest)});"]
        return [], [f"    if (bypass_ && dt_ && {ok})",
                    f"        pmpi_partner_add({comm}, {d}, {s}, sent_, recvd_, dt_);"]
    if c["name"] in STARTS:
        n, reqs = ("1", "a0") if c["name"] == "MPI_Start" else ("*(const int *)a0", "a1")
        return [], start_lines(c, f"pmpi_persist_started_f(&st_, {n}, (const MPI_Fint *){reqs});",
                               f"    if (bypass_ && dt_ && {ok}) {{", "fsite_")
    if c["name"] == "MPI_Request_free" or (persistent(c) and "request" in c["args"]):
        req = f"a{c['args'].index('request')}"
        if c["name"] == "MPI_Request_free":  # the handle is gone after the call
            return [f"    MPI_Request req_ = PMPI_Request_f2c(*(const MPI_Fint *){req});"], \
                   [f"    if (bypass_ && {ok})", "        pmpi_persist_forget(req_);"]
        return [], [f"    if (bypass_ && {ok})",
                    f"        pmpi_persist_forget(PMPI_Request_f2c(*(const MPI_Fint *){req}));"]
    return [], []


def _fortran_status(a, f08):
    """An ignored status replaced by one of ours (the program sees no change): a wildcard
    receive learns its sender there. (lines before the call, the C status expression)."""
    return (["    _Alignas(MPI_Status) MPI_Fint fst_[PMPI_F_STATUS_WORDS];",
             f"    if (pmpi_log.on && pmpi_fortran_status_ignored({a('status')}, {int(f08)}))",
             f"        {a('status')} = fst_;"],
            "(pmpi_fortran_status(" + a("status") + f", {int(f08)}, &cst_) ? &cst_ : NULL)")


def _fortran_statuses(a, args, f08):
    """An ignored array of statuses replaced by one of ours (stack up to PMPI_LOG_WAIT_MAX
    statuses, else the heap, freed after): a wildcard receive completed there learns its
    sender. (lines before the call, the array's argument)."""
    sts, cnt = a("array_of_statuses"), a("count") if "count" in args else a("incount")
    return (["    _Alignas(MPI_Status) MPI_Fint fsts_[PMPI_LOG_WAIT_MAX * PMPI_F_STATUS_WORDS]; /* event_log.h */",
             "    void *hfsts_;",
             f"    {sts} = pmpi_fortran_statuses_mine({sts}, {cnt}, {int(f08)}, fsts_, "
             "sizeof fsts_, &hfsts_);"], sts)


def _fortran_wait_some_rec(a, args, cid, t, flag, st, sts, f08):
    """A Waitany/Testany (indx) or Waitsome/Testsome record: the completed indices made C's."""
    if "indx" in args:
        return ["        MPI_Status cst_;",
                f"        int ix_ = *(const int *){a('indx')} - PMPI_FORTRAN_INDEX_BASE({int(f08)});",
                f"        int nd_ = !({flag}) ? -1 : *(const int *){a('indx')} != MPI_UNDEFINED;",
                f"        pmpi_log_wait_some({cid}, {t}, nrq_, rq_, nd_, &ix_, {st});"]
    return [f"        int nd_ = *(const int *){a('outcount')}, ix_[PMPI_LOG_WAIT_MAX];",
            "        nd_ = nd_ == MPI_UNDEFINED ? 0 : nd_ == 0 ? -1 /* a poll */ : nd_ < PMPI_LOG_WAIT_MAX ? nd_ : PMPI_LOG_WAIT_MAX;",
            "        for (int i_ = 0; i_ < nd_; i_++)",
            f"            ix_[i_] = ((const int *){a('array_of_indices')})[i_] - "
            f"PMPI_FORTRAN_INDEX_BASE({int(f08)});",
            "        MPI_Status cst_[PMPI_LOG_WAIT_MAX];",
            f"        int ncs_ = pmpi_fortran_statuses({sts}, {int(f08)}, nd_, cst_);",
            f"        pmpi_log_wait_some({cid}, {t}, nrq_, rq_, nd_, ix_, ncs_ ? cst_ : NULL);"]


def _fortran_call_rec(c, a, cid, t, status, f08):
    """A point-to-point call's or a collective's record(s), or a plain call's: (lines before
    the call, the record's lines)."""
    args, name, before, rec = c["args"], c["name"], [], []
    dest, source = partners(c)
    comm = fortran_arg(c, "comm", f08)
    req = f"pmpi_req_key(PMPI_Request_f2c(*(const MPI_Fint *){a('request')}))" \
        if "request" in args else "0"
    sync = "PMPI_EVF_SYNC" if synchronous(name) else "0"
    if dest or source:
        d = fortran_arg(c, dest, f08) if dest else None
        src = None
        if source:
            src = fortran_arg(c, "source" if "source" in args else "dest", f08)
            if "status" in args:
                src = f"pmpi_fortran_source({src}, {fortran_arg(c, 'status', f08)}, {int(f08)})"
        if not persistent(c):  # a persistent request is filed by fortran_traffic
            stag = "sendtag" if "sendtag" in args else "tag"
            rtag = "recvtag" if "recvtag" in args else "tag"
            if d and stag in args:
                rec.append(f"        pmpi_log_call({cid}, PMPI_EV_SEND, {t}, {comm}, {d}, "
                           f"{fortran_arg(c, stag, f08)}, sent_, {req}, {sync});")
            if src and rtag in args:
                tag = fortran_arg(c, rtag, f08)
                if status:  # MPI_ANY_TAG: the status's
                    before = status
                    rec.append("        MPI_Status cst_;")
                    tag = (f"({tag} == MPI_ANY_TAG && pmpi_fortran_status({a('status')}, "
                           f"{int(f08)}, &cst_) ? cst_.MPI_TAG : {tag})")
                rec.append(f"        pmpi_log_call({cid}, PMPI_EV_RECV, {t}, {comm}, {src}, "
                           f"{tag}, recvd_, {req}, 0);")
                if d and stag in args:  # a Sendrecv: both records in one claim
                    rec = [x for x in rec if "pmpi_log_call(" not in x] + [
                        f"        pmpi_log_sendrecv({cid}, {t}, {comm}, {d}, "
                        f"{fortran_arg(c, stag, f08)}, sent_, {src}, {tag}, recvd_, {req});"]
    elif c["kind"] == "coll" and "comm" in args and not persistent(c):
        root = fortran_arg(c, "root", f08) or "PMPI_LOG_NO_ROOT"
        rec = [f"        pmpi_log_call({cid}, PMPI_EV_COLL, {t}, {comm}, {root}, -1, "
               f"sent_ + recvd_, {req}, 0);"]
    if not rec:  # a call without a partner or root, or a persistent request's *_init
        rec.append(f"        pmpi_log_call({cid}, PMPI_EV_CALL, {t}, MPI_COMM_NULL, -1, -1, "
                   "sent_ + recvd_, 0, 0);")
    return before, rec


def fortran_log(c, f08):
    """For bindings that enter PMPI_* directly (Open MPI's, MPICH's mpi_f08 for Wait*,
    Test*, Barrier ...), the event log's record(s) the C wrapper would write, from the
    Fortran arguments: request handles through PMPI_Request_f2c (taken before a Wait/Test
    form, which frees them), Fortran's indices made C's (PMPI_FORTRAN_INDEX_BASE), the statuses read
    (an ignored one, or array, replaced by the forwarder's own). Returns
    (lines before the call, lines after it)."""
    cid, t = f"PMPI_ID_{c['name']}", "f_.t0, dt_, fsite_"
    args = c["args"]

    def a(name):
        return f"a{args.index(name)}"

    def keys(arr, n):
        return [f"    uint64_t rq_[PMPI_LOG_WAIT_MAX];",
                f"    int nrq_ = !pmpi_log.on ? 0 : ({n}) < PMPI_LOG_WAIT_MAX ? ({n}) : PMPI_LOG_WAIT_MAX;",
                "    for (int i_ = 0; i_ < nrq_; i_++)",
                f"        rq_[i_] = pmpi_req_key(PMPI_Request_f2c(((const MPI_Fint *){arr})[i_]));"]
    name, before, rec = c["name"], [], []
    flag = f"*(const MPI_Fint *){a('flag')} != 0" if "flag" in args else "1"
    status, st = ([], "NULL") if "status" not in args else _fortran_status(a, f08)
    statuses, sts = ([], None) if "array_of_statuses" not in args else _fortran_statuses(a, args, f08)
    if name in WAITS:
        arr = a("request") if "request" in args else a("array_of_requests")
        n = "1" if "request" in args else f"*(const int *){a('count')}"
        before = keys(arr, n) + status + statuses
        rec = ["        MPI_Status cst_;"] if status else []
        if statuses:
            rec = ["        MPI_Status cst_[PMPI_LOG_WAIT_MAX];",
                   f"        int ncs_ = pmpi_fortran_statuses({sts}, {int(f08)}, nrq_, cst_);"]
            st = "ncs_ ? cst_ : NULL"
        n = "nrq_" if flag == "1" else f"{flag} ? nrq_ : -1"  # a poll not done: folded
        rec += [f"        pmpi_log_wait({cid}, {t}, {n}, rq_, {st});"]
    elif name in WAITS_SOME:
        n = f"*(const int *){a('count') if 'count' in args else a('incount')}"
        before = keys(a("array_of_requests"), n) + status + statuses
        rec = _fortran_wait_some_rec(a, args, cid, t, flag, st, sts, f08)
    elif name in STARTS:  # logged with the partners (fortran_traffic)
        return [], []
    else:
        before, rec = _fortran_call_rec(c, a, cid, t, status, f08)
    ierr = f"a{len(args)}"
    after = [f"    if (bypass_ && dt_ && pmpi_log.on && pmpi_fortran_ok({ierr})) {{"] + rec + ["    }"]
    if statuses:
        after += ["    if (hfsts_)", "        free(hfsts_);"]
    return before, after


def fortran_forwarders(c):
    # C arguments + ierror + one hidden length per string argument (gfortran passes
    # them last; an argument too many is ignored by the callee).
    n = len(c["args"]) + 1 + c["params"].count("char")
    params = ", ".join(f"void *a{i}" for i in range(n))
    args = ", ".join(f"a{i}" for i in range(n))
    fb, out = fortran_bytes(c)
    for sym in (c["name"].lower() + "_", c["name"].lower() + "_f08_",
                c["name"].lower() + "_f08ts_"):
        before, after = fortran_traffic(c, "_f08" in sym)
        lbefore, lafter = fortran_log(c, "_f08" in sym)
        before, after = before + lbefore, after + lafter
        out += [f"void {sym}({params});", f"void {sym}({params})", "{"]
        out += lookup(sym, n)
        out += ["    void *fsite_ = __builtin_return_address(0);",
                "    struct pmpi_frame f_;",
                f"    pmpi_sample_enter(PMPI_ID_{c['name']}, fsite_);",
                "    pmpi_fortran_enter(&f_, fsite_);"] + \
            before + [f"    real_({args});"]
        if after:
            out.append("    int bypass_ = !pmpi_fcall.counted; /* no C wrapper reached */")
        if fb:  # bindings that bypass the C wrapper: bytes from the Fortran arguments
            out += ["    long long sent_ = 0, recvd_ = 0;",
                    "    if (!pmpi_fcall.counted && f_.t0) {",
                    f"        void *av_[] = {{{args}}};",
                    f"        {fb}(av_, &sent_, &recvd_);", "    }"]
            if persistent(c) and after:  # filed whether or not recording is on now
                out += ["    long long fsent_ = sent_, frecvd_ = recvd_;",
                        "    if (bypass_ && !f_.t0) {",
                        f"        void *av_[] = {{{args}}};",
                        f"        {fb}(av_, &fsent_, &frecvd_);", "    }"]
            leave = f"pmpi_fortran_leave_bytes(PMPI_ID_{c['name']}, &f_, sent_, recvd_)"
        else:
            leave = f"pmpi_fortran_leave(PMPI_ID_{c['name']}, &f_)"
            if "fsent_" in "".join(after):  # no bytes computable from these arguments
                out.append("    const long long fsent_ = 0, frecvd_ = 0;")
            if re.search(r"\bsent_", "".join(after)):
                out.append("    const long long sent_ = 0, recvd_ = 0;")
        out.append(f"    long long dt_ = {leave};" if after and "dt_" in "".join(after)
                   else f"    {leave};")
        out += after
        out += ["    pmpi_sample_leave();", "}", ""]
    return out


def hand_f08(c, legacy):
    out = []
    hook = F08_HOOKS[c["name"]]
    # legacy: the mpif.h / `use mpi` entry points too, for MPIs whose bindings enter
    # PMPI_* directly (Open MPI) and would never reach the C MPI_Init (MPI_Pcontrol's
    # are hand-written in lifecycle.c).
    for sym in [c["name"].lower() + "_f08_"] + \
            ([c["name"].lower() + "_"] if legacy and hook != "pcontrol" else []):
        out += hand_forwarder(c, sym, hook)
    return out


def hand_forwarder(c, sym, hook):
    n = int(c["f08"])
    params = ", ".join(f"void *a{i}" for i in range(n))
    args = ", ".join(f"a{i}" for i in range(n))
    out = [f"void {sym}({params});", f"void {sym}({params})", "{"]
    out += lookup(sym, n)
    if hook == "after_init":
        out += ["    long long t0_ = pmpi_ticks();", f"    real_({args});",
                "    pmpi_after_init();", f"    pmpi_count_call(PMPI_ID_{c['name']}, t0_);"]
    elif hook == "pcontrol":
        out += [f"    pmpi_count_call(PMPI_ID_{c['name']}, pmpi_ticks());",
                "    pmpi_pcontrol(a0 ? *(const int *)a0 : 0, NULL);", f"    real_({args});"]
    else:
        out += [f"    pmpi_count_call(PMPI_ID_{c['name']}, pmpi_ticks());",
                f"    pmpi_{hook}();", f"    real_({args});"]
        if hook == "before_finalize":  # the MPI's finalize, where ranks wait for rank 0's report
            out += ["    pmpi_after_finalize();"]
    out += ["}", ""]
    return out


def gen_table(calls, kinds):
    enums = {k["name"]: wait_enum(k) for k in kinds}
    out = ["/* Generated by gen_wrappers.py from mpi_calls.list and wait_kinds.list: do not "
           "edit. */", "#include \"papi_mpi_calls.h\"", "",
           "const char *const pmpi_wait_names[PMPI_WAIT_KINDS] = {"]
    out += [f"    \"{k['name']}_s\"," for k in kinds] + ["};", "",
            "const char *const pmpi_wait_banner[PMPI_WAIT_KINDS] = {"]
    out += [f"    \"{k['banner']}\"," for k in kinds] + ["};", "",
            "const int pmpi_wait_arrival[PMPI_WAIT_KINDS] = {"]
    out += [f"    {WAITS_FOR[k['waits_for']]}," for k in kinds] + ["};", "",
            "const struct pmpi_call_info pmpi_calls[PMPI_NCALLS] = {"]
    for c in calls:
        wait = enums[c["wait"]] if c["wait"] else "-1"
        out.append(f"    {{\"{c['name']}\", {KINDS[c['kind']]}, {wait}}},")
    out += ["};", ""]
    return "\n".join(out)


#: The C headers whose record kinds, flags and constants papi_report reads as the wrapper
#: writes them (its event log's lines are these records), beside this file.
RECORD_HEADERS = ("event_log/event_record.h", "waits/wait_rules.h")


def _c_value(text, where):
    """The value of a header's integer expression: digits, + - * << and parentheses."""
    text = re.sub(r"/\*.*?\*/", "", text).strip()
    if not re.fullmatch(r"[\d\s()*+<-]+", text):
        sys.exit(f"{where}: '{text}': not an integer expression gen_wrappers.py reads")
    return int(eval(text, {"__builtins__": {}}))  # noqa: S307 (digits and operators only)


def record_constants(headers=None):
    """What papi_report needs of the event log's record, read from the C headers
    (RECORD_HEADERS) so the two cannot drift: the record kinds of enum pmpi_ev_kind
    (PMPI_EV_SEND -> "SEND"), the flags (PMPI_EVF_SYNC -> "EVF_SYNC") and the wait rules'
    constants (PMPI_RENDEZVOUS_BYTES -> "RENDEZVOUS_BYTES"): three {name: value}."""
    here = os.path.dirname(os.path.abspath(__file__))
    kinds, flags, consts = {}, {}, {}
    for rel in headers or RECORD_HEADERS:
        path = os.path.join(here, rel)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        enum = re.search(r"enum pmpi_ev_kind \{(.*?)\};", text, re.S)
        if enum:
            body, value = re.sub(r"/\*.*?\*/", "", enum.group(1), flags=re.S), -1
            for item in filter(None, (x.strip() for x in body.split(","))):
                name, _, expr = (x.strip() for x in item.partition("="))
                value = _c_value(expr, path) if expr else value + 1
                kinds[re.sub(r"^PMPI_EV_", "", name)] = value
        for name, expr in re.findall(r"^#define (PMPI_EVF_\w+|PMPI_RENDEZVOUS_BYTES)\s+(.+)$",
                                     text, re.M):
            (flags if name.startswith("PMPI_EVF_") else consts)[name[len("PMPI_"):]] = \
                _c_value(expr, path)
    if not kinds or not flags or not consts:
        sys.exit(f"{', '.join(headers or RECORD_HEADERS)}: no enum pmpi_ev_kind, PMPI_EVF_* "
                 "or PMPI_RENDEZVOUS_BYTES found")
    return kinds, flags, consts


def gen_python(calls, kinds):
    """papi_report's table of the same rules (papi_report/load/mpi_rules.py reads it) and
    of the event log's record (load/event_record.py reads it)."""
    fields = ("name", "waits_for", "banner", "label", "colour")
    waits = [tuple(k[f] for f in fields) for k in kinds]
    colls = {c["name"]: c["wait"] for c in calls if c["wait"]}
    blocking = sorted(c["name"] for c in calls if c["kind"] == "coll" and "request" not in c["args"])
    sends = sorted(c["name"] for c in calls if c["kind"] == "p2p" and c["send"] and
                   "request" not in c["args"])
    sync = sorted(c["name"] for c in calls if c["kind"] == "p2p" and synchronous(c["name"]))
    rec_kinds, rec_flags, consts = record_constants()
    out = ['"""Generated by gen_wrappers.py from mpi-wrappers/mpi_calls.list and wait_kinds.list:',
           'do not edit. The rules papi_report applies as the MPI wrapper does (mpi_rules.py)."""',
           f"#: The wait kinds in the report's order: {fields}.",
           "WAIT_KINDS = " + pprint.pformat(waits, width=96),
           "#: Each collective's wait kind (mpi_calls.list's wait= column).",
           "COLL_WAITS = " + pprint.pformat(colls, width=96),
           "#: The collectives that make no request (not the nonblocking nor the persistent forms).",
           "BLOCKING_COLLS = " + pprint.pformat(blocking, width=96, compact=True),
           "#: The point-to-point calls that send and make no request (a blocking send).",
           "BLOCKING_SENDS = " + pprint.pformat(sends, width=96, compact=True),
           "#: The synchronous sends (logged with PMPI_EVF_SYNC: they wait for their receive).",
           "SYNC_SENDS = " + pprint.pformat(sync, width=96, compact=True),
           "#: The event log's record kinds (event_log/event_record.h, enum pmpi_ev_kind).",
           "RECORD_KINDS = " + pprint.pformat(rec_kinds, width=96, sort_dicts=False),
           "#: Its flags (event_record.h, PMPI_EVF_*).",
           "RECORD_FLAGS = " + pprint.pformat(rec_flags, width=96, sort_dicts=False),
           "#: The wait rules' constants (waits/wait_rules.h).",
           "WAIT_CONSTANTS = " + pprint.pformat(consts, width=96, sort_dicts=False), ""]
    return "\n".join(out)


def gen_source(calls, legacy):
    out = ["/* Generated by gen_wrappers.py from mpi_calls.list: do not edit. */",
           "#include <mpi.h>", "#include <stdlib.h>", "", "#include \"lifecycle.h\"", "#include \"mpi_bytes.h\"",
           "#include \"event_log.h\"", "#include \"record.h\"", "#include \"traffic.h\"", ""]
    for c in calls:
        if c["kind"] == "hand":
            if c["f08"]:
                out += hand_f08(c, legacy)
            continue
        out += c_wrapper(c)
        out += fortran_forwarders(c)
    return "\n".join(out)


def main():
    if len(sys.argv) >= 5 and sys.argv[1] == "probe":
        probe(parse(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5:])
        return
    if len(sys.argv) == 4 and sys.argv[1] == "python":  # every call: no MPI needed
        with open(sys.argv[3], "w", encoding="utf-8") as f:
            f.write(gen_python(parse(sys.argv[2]), wait_list(sys.argv[2])[0]))
        return
    argv = [a for a in sys.argv if a != "--fortran-enters-pmpi"]
    legacy = len(argv) != len(sys.argv)
    if len(argv) not in (3, 4):
        sys.exit("usage: gen_wrappers.py mpi_calls.list OUTDIR [UNDECLARED] "
                 "[--fortran-enters-pmpi] | probe mpi_calls.list OUTDIR CC CFLAGS... | "
                 "python mpi_calls.list OUT.py")
    sys.argv = argv
    calls = parse(sys.argv[1])
    if len(sys.argv) == 4:  # calls this MPI does not declare are left out
        with open(sys.argv[3], encoding="utf-8") as f:
            missing = {line.strip() for line in f if line.strip()}
        calls = [c for c in calls if c["name"] not in missing or c["kind"] == "hand"]
    kinds = wait_list(sys.argv[1])[0]
    with open(sys.argv[2] + "/papi_mpi_calls.h", "w", encoding="utf-8") as f:
        f.write(gen_header(calls, kinds))
    with open(sys.argv[2] + "/papi_mpi_calls.c", "w", encoding="utf-8") as f:
        f.write(gen_table(calls, kinds))
    with open(sys.argv[2] + "/papi_mpi_wrappers.c", "w", encoding="utf-8") as f:
        f.write(gen_source(calls, legacy))


if __name__ == "__main__":
    main()
