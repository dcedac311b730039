#!/usr/bin/env python3
"""The cover of tests/prism.sh: every operation of the document answered
both ways through Prism without a violation.

    cover.py SPEC COVER_TSV
    cover.py SPEC --params

COVER_TSV has a line per request tests/prism.sh sent through Prism:
method, path (without the query), status, "clean" when Prism reported no
violation and the point passed (else "-"), description. Prints "PASS
text" or "FAIL text" for each operation of SPEC: it must have had a 2xx
and a 4xx answer checked clean. Python 3 with PyYAML (Debian:
python3-yaml).
"""

import re
import sys

import yaml

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def path_regex(tmpl):
    parts = re.split(r"(\{[^}]+\})", tmpl)
    return re.compile("^" + "".join(
        "[^/]+" if p.startswith("{") else re.escape(p) for p in parts) + "$")


def match_path(paths, path):
    """The template of path: the one with the most literal text."""
    best = None
    for tmpl in paths:
        if path_regex(tmpl).match(path):
            lit = len(re.sub(r"\{[^}]+\}", "", tmpl))
            if best is None or lit > best[0]:
                best = (lit, tmpl)
    return best[1] if best else None


def doc_node_at(doc, ref):
    node = doc
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def params_check(doc):
    """Every required parameter has an example (request generators such as
    Dredd refuse to run without one)."""
    bad = []
    for tmpl, item in doc["paths"].items():
        lists = [("", item.get("parameters", []))]
        lists += [(m.upper() + " ", item[m].get("parameters", [])) for m in METHODS if m in item]
        for where, params in lists:
            for p in params:
                p = doc_node_at(doc, p["$ref"]) if "$ref" in p else p
                if p.get("required") and "example" not in p and "examples" not in p \
                        and "example" not in p.get("schema", {}):
                    bad.append("%s%s: %s %s" % (where, tmpl, p.get("in"), p.get("name")))
    text = "every required parameter of the document has an example"
    print(("PASS " + text) if not bad else ("FAIL %s (none: %s)" % (text, ", ".join(bad))))


def main(argv):
    with open(argv[1], encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    if len(argv) > 2 and argv[2] == "--params":
        params_check(doc)
        return 0
    seen = {}
    with open(argv[2], encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 4 or parts[3] != "clean":
                continue
            method, path, status = parts[0], parts[1], parts[2]
            tmpl = match_path(doc["paths"], path)
            if tmpl is None:
                continue
            seen.setdefault((method.upper(), tmpl), set()).add(status[:1])
    for tmpl, item in doc["paths"].items():
        for m in METHODS:
            if m not in item:
                continue
            got = seen.get((m.upper(), tmpl), set())
            lack = [k for k, want in (("a 2xx", "2"), ("a 4xx", "4")) if want not in got]
            text = "%s %s (%s): a 2xx and a 4xx answer checked by Prism without a violation" % (
                m.upper(), tmpl, item[m].get("operationId"))
            print(("PASS " + text) if not lack else
                  ("FAIL %s (no clean %s)" % (text, " or ".join(lack))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
