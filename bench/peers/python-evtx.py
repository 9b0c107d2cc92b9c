# Peer: python-evtx (Debian python3-evtx) rendering every record's XML, stopping at DEADLINE_MS.
import json, os, sys, time
import Evtx.Evtx as evtx

deadline = time.time() + float(os.environ.get("DEADLINE_MS", "1e12")) / 1000
records, errors, capped = 0, 0, False
for path in sys.argv[1:]:
    with evtx.Evtx(path) as log:
        for rec in log.records():
            try:
                rec.xml()
                records += 1
            except Exception:
                errors += 1
            if time.time() > deadline:
                capped = True
                break
    if capped:
        break
print(json.dumps({"records": records, "errors": errors, "capped": capped}))
