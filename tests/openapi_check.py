#!/usr/bin/env python3
"""Checks docs/openapi.yaml against the code and against live answers.

    openapi_check.py SPEC SRCDIR --doc       the document against the code
    openapi_check.py SPEC SRCDIR --live DIR  recorded answers against it

Prints one line a check for tests/openapi.sh to turn into TAP points:
"PASS text", "FAIL text", "DIAG text"; "SKIP reason" alone when it cannot
run (no PyYAML: Debian's python3-yaml). Python 3 standard library plus
PyYAML, nothing else.

--doc: every example in the document is valid against its schema; every
row of lib/endpoints.def is documented with its methods, bare or enveloped
answer, Cache-Control and security, and nothing else is; the error codes
and their statuses equal lib/err.c, and every error response lists codes
of its own status only; every `x-limit: EXPR` beside a maxLength,
maxItems, maximum or x-maximum-minor (`x-limit-min` beside a
minLength, minItems or minimum) equals EXPR computed from lib/lc_limits.h; the
settings' ranges and defaults equal lib/settings.c.

--live DIR: DIR holds what tests/openapi.sh recorded, per request NNNN.req
(method, path with query, description, the X-Request-Id sent or nothing),
NNNN.headers (as curl -D wrote them) and NNNN.body. Each answer is checked
against the operation its method and path name: its status is one the
operation documents, its Content-Type one that status documents, its body
valid against that schema, its documented headers present and valid; and
on every answer X-Request-Id (equal to meta.request_id, the client's own
echoed), WWW-Authenticate on 401, Retry-After on 429 and 503, Allow on 405
naming at least the documented methods, Cache-Control exactly where the
operation documents it, the error code's status equal to the HTTP status.
An answer no operation documents (405, a path of no endpoint) is checked
against the error body. Then every operation must have had a checked 2xx.

The schema checker implements the part of JSON Schema 2020-12 the
document uses: type (with type arrays for null), const, enum, properties,
required, additionalProperties, unevaluatedProperties, items, min/maxItems,
min/maxLength, pattern, minimum, maximum, exclusiveMinimum, multipleOf,
minProperties, allOf, anyOf, oneOf, not, $ref (local, with siblings); and
the document's own `x-decimals: N` (at most N decimals),
`x-decimals-exact: true` (written with exactly N) and `x-maximum-minor: N`
(at most N minor units). `x-decimals: currency` is the shop's currency's
decimals: an answer's (or example's) own `currency_decimals` wherever it
holds one, else the shop's that tests/openapi.sh recorded beside the
request (its fifth line), else 2 (a shop that named no currency); every
`currency_decimals` of one answer must agree. Numbers are compared
exactly (JSON and YAML numbers are read as decimals), and "integer" means
a number written without a fraction or exponent, as the service reads and
writes them.
"""

import json
import os
import re
import sys
from decimal import Decimal

try:
    import yaml
except ImportError:
    print("SKIP python3 has no yaml module (Debian: apt-get install python3-yaml)")
    sys.exit(0)


# --- loading ----------------------------------------------------------------

class Loader(yaml.SafeLoader):
    """YAML as JSON sees it: no dates, only true/false as booleans, and
    decimal numbers kept exact."""


Loader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v
        if tag not in ("tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:bool")]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool",
    re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
Loader.add_constructor(
    "tag:yaml.org,2002:float",
    lambda loader, node: Decimal(loader.construct_scalar(node).replace("_", "")))


def load_spec(path):
    with open(path, encoding="utf-8") as f:
        return yaml.load(f, Loader=Loader)


def load_json(text):
    return json.loads(text, parse_float=Decimal)


# --- output -----------------------------------------------------------------

def out(kind, text):
    for i, line in enumerate(str(text).splitlines() or [""]):
        print(("%s %s" % (kind, line)) if i == 0 else ("DIAG   %s" % line))
    sys.stdout.flush()


def result(ok, text, problems=()):
    out("PASS" if ok else "FAIL", text)
    if not ok:
        for p in list(problems)[:12]:
            out("DIAG", "  " + p)
        if len(problems) > 12:
            out("DIAG", "  ... and %d more" % (len(problems) - 12))


# --- the schema checker ------------------------------------------------------

def is_num(x):
    return isinstance(x, (int, Decimal)) and not isinstance(x, bool)


def jtype(x):
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "boolean"
    if isinstance(x, int):
        return "integer"
    if isinstance(x, Decimal):
        return "number"
    if isinstance(x, str):
        return "string"
    if isinstance(x, list):
        return "array"
    if isinstance(x, dict):
        return "object"
    return type(x).__name__


def jeq(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if is_num(a) and is_num(b):
        return Decimal(a) == Decimal(b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(jeq(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(jeq(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def short(x):
    s = json.dumps(x, default=str)
    return s if len(s) <= 60 else s[:57] + "..."


def shop_decimals(body, default):
    """The decimals of the shop an answer is of: its currency_decimals
    (all of them, which must agree), else default. (decimals, problems)"""
    found = set()

    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if k == "currency_decimals" and isinstance(v, int) and not isinstance(v, bool):
                    found.add(v)
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(body)
    if len(found) > 1:
        return default, ["currency_decimals differ within one answer: %s" % sorted(found)]
    return (found.pop() if found else default), []


class Schemas:
    def __init__(self, doc):
        self.doc = doc
        # `x-decimals: currency`: the shop's, set before each validate.
        self.decimals = 2

    def resolve(self, ref):
        if not ref.startswith("#/"):
            raise KeyError("only local references: %s" % ref)
        node = self.doc
        for part in ref[2:].split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return node

    def deref(self, node):
        while isinstance(node, dict) and "$ref" in node and len(node) == 1:
            node = self.resolve(node["$ref"])
        return node

    def validate(self, schema, x, path="$"):
        return self._check(schema, x, path)[0]

    def _check(self, s, x, p):
        """(problems, names of the properties evaluated when valid)"""
        if s is True or s == {}:
            return [], set()
        if s is False:
            return ["%s: nothing is allowed here" % p], set()
        errs, ev = [], set()

        def sub(schema, value, path):
            e, v = self._check(schema, value, path)
            errs.extend(e)
            return v

        if "$ref" in s:
            ev |= sub(self.resolve(s["$ref"]), x, p)
        t = s.get("type")
        if t is not None:
            types = t if isinstance(t, list) else [t]
            if not any(self._is(x, tt) for tt in types):
                errs.append("%s: %s %s is not %s" % (p, jtype(x), short(x), " or ".join(types)))
                return errs, ev
        if "const" in s and not jeq(x, s["const"]):
            errs.append("%s: %s is not %s" % (p, short(x), short(s["const"])))
        if "enum" in s and not any(jeq(x, e) for e in s["enum"]):
            errs.append("%s: %s is not one of %s" % (p, short(x), short(s["enum"])))
        if is_num(x):
            d = Decimal(x)
            if "minimum" in s and d < Decimal(s["minimum"]):
                errs.append("%s: %s is below %s" % (p, x, s["minimum"]))
            if "maximum" in s and d > Decimal(s["maximum"]):
                errs.append("%s: %s is above %s" % (p, x, s["maximum"]))
            if "exclusiveMinimum" in s and d <= Decimal(s["exclusiveMinimum"]):
                errs.append("%s: %s is not above %s" % (p, x, s["exclusiveMinimum"]))
            if "multipleOf" in s and d % Decimal(s["multipleOf"]) != 0:
                errs.append("%s: %s is not a multiple of %s" % (p, x, s["multipleOf"]))
            n = s.get("x-decimals")
            if n == "currency":
                n = self.decimals
            if n is not None and d.scaleb(int(n)) % 1 != 0:
                errs.append("%s: %s has more than %s decimals" % (p, x, n))
            # Exactly 0 decimals is an integer as written (1500, not 1500.0).
            if n is not None and s.get("x-decimals-exact") and not (
                    isinstance(x, int) if int(n) == 0 else
                    isinstance(x, Decimal) and -x.as_tuple().exponent == int(n)):
                errs.append("%s: %s is not written with exactly %s decimals" % (p, x, n))
            if "x-maximum-minor" in s and \
                    d.scaleb(int(n or 0)) > Decimal(s["x-maximum-minor"]):
                errs.append("%s: %s is above %s minor units (%s decimals)" % (
                    p, x, s["x-maximum-minor"], n))
        if isinstance(x, str):
            if "minLength" in s and len(x) < s["minLength"]:
                errs.append("%s: %s is shorter than %d" % (p, short(x), s["minLength"]))
            if "maxLength" in s and len(x) > s["maxLength"]:
                errs.append("%s: %s is longer than %d" % (p, short(x), s["maxLength"]))
            if "pattern" in s and not re.search(s["pattern"], x):
                errs.append("%s: %s does not match %s" % (p, short(x), s["pattern"]))
        if isinstance(x, list):
            if "minItems" in s and len(x) < s["minItems"]:
                errs.append("%s: %d items, fewer than %d" % (p, len(x), s["minItems"]))
            if "maxItems" in s and len(x) > s["maxItems"]:
                errs.append("%s: %d items, more than %d" % (p, len(x), s["maxItems"]))
            if "items" in s:
                for i, v in enumerate(x):
                    sub(s["items"], v, "%s[%d]" % (p, i))
        if isinstance(x, dict):
            for k in s.get("required", []):
                if k not in x:
                    errs.append("%s: %s is missing" % (p, k))
            if "minProperties" in s and len(x) < s["minProperties"]:
                errs.append("%s: fewer than %d properties" % (p, s["minProperties"]))
            props = s.get("properties", {})
            for k, v in x.items():
                if k in props:
                    sub(props[k], v, "%s.%s" % (p, k))
                    ev.add(k)
            if "additionalProperties" in s:
                for k, v in x.items():
                    if k in props:
                        continue
                    if s["additionalProperties"] is False:
                        errs.append("%s: %s is not documented" % (p, k))
                    else:
                        sub(s["additionalProperties"], v, "%s.%s" % (p, k))
                    ev.add(k)
        for one in s.get("allOf", []):
            ev |= sub(one, x, p)
        if "anyOf" in s:
            passed, best = 0, None
            for one in s["anyOf"]:
                e, v = self._check(one, x, p)
                if not e:
                    passed += 1
                    ev |= v
                elif best is None or len(e) < len(best):
                    best = e
            if not passed:
                errs.append("%s: matches none of anyOf" % p)
                errs.extend("  " + e for e in best or [])
        if "oneOf" in s:
            good, best = [], None
            for i, one in enumerate(s["oneOf"]):
                e, v = self._check(one, x, p)
                if not e:
                    good.append((i, v))
                elif best is None or len(e) < len(best):
                    best = e
            if len(good) == 1:
                ev |= good[0][1]
            elif not good:
                errs.append("%s: matches none of oneOf" % p)
                errs.extend("  " + e for e in best or [])
            else:
                errs.append("%s: matches %d branches of oneOf (%s)" % (
                    p, len(good), ", ".join(str(i) for i, _ in good)))
        if "not" in s and not self._check(s["not"], x, p)[0]:
            errs.append("%s: matches what `not` forbids" % p)
        if "unevaluatedProperties" in s and isinstance(x, dict) and not errs:
            for k, v in x.items():
                if k in ev:
                    continue
                if s["unevaluatedProperties"] is False:
                    errs.append("%s: %s is not documented" % (p, k))
                else:
                    sub(s["unevaluatedProperties"], v, "%s.%s" % (p, k))
                ev.add(k)
        return errs, ev

    @staticmethod
    def _is(x, t):
        return {
            "null": x is None,
            "boolean": isinstance(x, bool),
            "integer": isinstance(x, int) and not isinstance(x, bool),
            "number": is_num(x),
            "string": isinstance(x, str),
            "array": isinstance(x, list),
            "object": isinstance(x, dict),
        }.get(t, False)


# --- the document -------------------------------------------------------------

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def operations(doc):
    for tmpl, item in doc["paths"].items():
        for m in METHODS:
            if m in item:
                yield tmpl, m.upper(), item[m]


def path_regex(tmpl):
    parts = re.split(r"(\{[^}]+\})", tmpl)
    return re.compile("^" + "".join(
        "[^/]+" if p.startswith("{") else re.escape(p) for p in parts) + "$")


def match_path(doc, path):
    """The template of path: the one with the most literal text."""
    best = None
    for tmpl in doc["paths"]:
        if path_regex(tmpl).match(path):
            lit = len(re.sub(r"\{[^}]+\}", "", tmpl))
            if best is None or lit > best[0]:
                best = (lit, tmpl)
    return best[1] if best else None


def success_responses(S, op):
    for code, r in op.get("responses", {}).items():
        if str(code).startswith("2"):
            yield str(code), S.deref(r)


def mentions(S, schema, name, seen=None):
    """Whether the schema (through $ref and allOf) declares property name."""
    seen = seen or set()
    if not isinstance(schema, dict):
        return False
    if "$ref" in schema:
        if schema["$ref"] in seen:
            return False
        seen.add(schema["$ref"])
        if mentions(S, S.resolve(schema["$ref"]), name, seen):
            return True
    if name in schema.get("properties", {}):
        return True
    return any(mentions(S, s, name, seen) for s in schema.get("allOf", []))


def error_codes(S, schema, seen=None):
    """The codes an error response's schema allows: the const or enum on
    error.code, through $ref and allOf; None when it does not narrow."""
    found = []

    def walk(s):
        if not isinstance(s, dict):
            return
        if "$ref" in s:
            walk(S.resolve(s["$ref"]))
        code = s.get("properties", {}).get("error", {}).get("properties", {}).get("code")
        if isinstance(code, dict):
            if "const" in code:
                found.append({code["const"]})
            elif "enum" in code:
                found.append(set(code["enum"]))
        for one in s.get("allOf", []):
            walk(one)

    walk(schema)
    if not found:
        return None
    codes = found[0]
    for f in found[1:]:
        codes &= f
    return codes


def c_expr(text, names):
    """An integer expression of lib/lc_limits.h (or x-limit) computed."""
    text = re.sub(r"\b(\d+)[uUlL]+\b", r"\1", text.strip())
    if not re.fullmatch(r"[\w\s()*+/-]+", text):
        raise ValueError("not a plain expression: %s" % text)
    for tok in re.findall(r"[A-Za-z_]\w*", text):
        if tok not in names:
            raise ValueError("unknown name %s" % tok)
    return eval(text, {"__builtins__": {}}, dict(names))  # noqa: S307 (checked above)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def limits(srcdir):
    names = {}
    for line in read(os.path.join(srcdir, "lib/lc_limits.h")).splitlines():
        m = re.match(r"#define\s+(LC_\w+)\s+([^/]+?)\s*(/\*.*)?$", line)
        if m and not line.split()[1].endswith(")") and "(" not in m.group(1):
            try:
                names[m.group(1)] = c_expr(m.group(2), names)
            except ValueError:
                pass
    return names


def doc_checks(doc, srcdir):
    S = Schemas(doc)
    result(str(doc.get("openapi", "")).startswith("3.1"), "the document is OpenAPI 3.1")

    # Every $ref resolves.
    bad = []

    def refs(node, where):
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "$ref" and isinstance(v, str):
                    try:
                        S.resolve(v)
                    except (KeyError, TypeError):
                        bad.append("%s: %s" % (where, v))
                else:
                    refs(v, where + "/" + str(k))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                refs(v, "%s/%d" % (where, i))

    refs(doc, "#")
    result(not bad, "every $ref of the document resolves", bad)

    # Examples against their schemas.
    def media_examples(where, content):
        for mt, media in (content or {}).items():
            schema = media.get("schema")
            exs = []
            if "example" in media:
                exs.append(("example", media["example"]))
            for name, ex in (media.get("examples") or {}).items():
                exs.append(("examples." + name, S.deref(ex).get("value")))
            for name, value in exs:
                text = "example %s %s %s is valid" % (where, mt, name)
                if mt == "application/json":
                    S.decimals, problems = shop_decimals(value, 2)
                    problems += S.validate(schema, value)
                    result(not problems, text, problems)
                else:
                    result(isinstance(value, str), text, ["not a string"])

    for tmpl, method, op in operations(doc):
        rb = S.deref(op.get("requestBody", {}))
        media_examples("%s %s request" % (method, tmpl), rb.get("content"))
        for code, r in op.get("responses", {}).items():
            if "$ref" not in r:
                media_examples("%s %s %s" % (method, tmpl, code), r.get("content"))
    for name, r in doc["components"].get("responses", {}).items():
        media_examples("response " + name, r.get("content"))
    # The webhooks (OpenAPI 3.1's top-level `webhooks`): their bodies'
    # examples, and one entry per event type of the feed, and the test's.
    hooks = doc.get("webhooks") or {}
    for name, item in hooks.items():
        for m in METHODS:
            if m in item:
                rb = S.deref(item[m].get("requestBody", {}))
                media_examples("webhook %s request" % name, rb.get("content"))
    want = set(doc["components"]["schemas"]["EventType"]["enum"]) | {"webhook.test"}
    result(set(hooks) == want, "the webhooks section has one entry per event type and webhook.test",
           ["%s: %s" % ("missing" if k in want else "not a type", k) for k in sorted(set(hooks) ^ want)])

    # The endpoint table.
    # Its rows, LC_EP(NAME, "PATH", "METHODS", FLAGS), PATH below /api/v1/;
    # notfound, endpoints.c's own row, has no path to document.
    src = re.sub(r'/\*.*?\*/', ' ', read(os.path.join(srcdir, "lib/endpoints.def")), flags=re.S)
    rows = re.findall(
        r'^LC_EP\(\s*(\w+),\s*"([^"]*)",\s*"([A-Z ]+)",\s*([A-Z_0-9|\s]+?)\s*\)',
        src, re.M)
    result(len(rows) > 1, "lib/endpoints.def has endpoint rows (%d rows)" % len(rows))
    covered = set()
    for name, path, methods, flags in rows:
        flags = set(f.strip() for f in flags.split("|"))
        base = "/api/v1/" + path
        tree = "LC_EP_TREE" in flags
        problems, seen = [], set()
        for tmpl, method, op in operations(doc):
            if tmpl != base and not (tree and tmpl.startswith(base + "/")):
                continue
            covered.add(tmpl)
            seen.add(method)
            where = "%s %s" % (method, tmpl)
            sec = op.get("security", doc.get("security", []))
            needs = bool(flags & {"LC_EP_AUTH", "LC_EP_OWNER"})
            # {} among the schemes: the token is optional (logout).
            if (bool(sec) and {} not in sec) != needs:
                problems.append("%s: security %s, the table says %s" % (
                    where, sec, "a token" if needs else "none"))
            if "LC_EP_OWNER" in flags and "403" not in op["responses"]:
                problems.append("%s: an owner's endpoint without 403" % where)
            body = "LC_EP_JSON" in flags and method in ("POST", "PATCH")
            if body != ("requestBody" in op):
                problems.append("%s: requestBody %s, the table says %s" % (
                    where, "requestBody" in op, body))
            if body and not {"400", "413", "415"} <= set(op["responses"]):
                problems.append("%s: a JSON body without 400, 413 and 415" % where)
            for code, r in success_responses(S, op):
                if ("Cache-Control" in r.get("headers", {})) != ("LC_EP_NOSTORE" in flags):
                    problems.append("%s %s: Cache-Control documented %s, no-store in the table %s" % (
                        where, code, "Cache-Control" in r.get("headers", {}),
                        "LC_EP_NOSTORE" in flags))
                js = r.get("content", {}).get("application/json")
                if js is None:
                    continue
                env = mentions(S, js["schema"], "meta")
                if env == ("LC_EP_BARE" in flags):
                    problems.append("%s %s: answer %s, the table says %s" % (
                        where, code, "enveloped" if env else "bare",
                        "bare" if "LC_EP_BARE" in flags else "enveloped"))
        want = set(methods.split())
        if seen != want:
            problems.append("methods documented %s, the table says %s" % (
                " ".join(sorted(seen)) or "none", " ".join(sorted(want))))
        result(not problems, "endpoint %s (%s %s) is documented as lib/endpoints.def has it" % (
            name, base + ("/..." if tree else ""), methods), problems)
    extra = sorted(set(doc["paths"]) - covered)
    result(not extra, "every documented path is an endpoint of lib/endpoints.def",
           ["not in the table: " + p for p in extra])

    # The error table.
    src = read(os.path.join(srcdir, "lib/err.c"))
    table = {c: int(s) for c, s in re.findall(r'\[LC_E_\w+\]\s*=\s*\{\s*"(\w+)",\s*(\d+)', src)}
    ec = doc["components"]["schemas"]["ErrorCode"]
    documented = ec.get("x-http-status", {})
    problems = ["%s: %s in lib/err.c, %s here" % (c, table.get(c), documented.get(c))
                for c in sorted(set(table) | set(documented))
                if table.get(c) != documented.get(c)]
    if set(ec["enum"]) != set(table):
        problems.append("ErrorCode enum %s differs from lib/err.c" % sorted(set(ec["enum"]) ^ set(table)))
    result(table and not problems, "error codes and statuses (%d) are those of lib/err.c" % len(table),
           problems)
    problems = []
    for tmpl, method, op in operations(doc):
        for code, r in op["responses"].items():
            r = S.deref(r)
            js = r.get("content", {}).get("application/json")
            codes = error_codes(S, js["schema"]) if js else None
            if codes is None:
                continue
            for c in codes:
                if str(documented.get(c)) != str(code):
                    problems.append("%s %s %s: %s is a %s" % (method, tmpl, code, c, documented.get(c)))
    for name, r in doc["components"]["responses"].items():
        js = r.get("content", {}).get("application/json")
        codes = error_codes(S, js["schema"]) if js else None
        if codes and len({documented.get(c) for c in codes}) != 1:
            problems.append("response %s mixes statuses: %s" % (name, sorted(codes)))
    result(not problems, "every error response lists only codes of its own status", problems)

    # Limits.
    names = limits(srcdir)
    sites, problems = [], []

    def walk(node, where):
        if isinstance(node, dict):
            for mark, which in (("x-limit", ("maxLength", "maxItems", "maximum", "x-maximum-minor")),
                                ("x-limit-min", ("minLength", "minItems", "minimum"))):
                if mark not in node:
                    continue
                keys = [k for k in which if k in node]
                try:
                    want = c_expr(str(node[mark]), names)
                except ValueError as e:
                    problems.append("%s: %s" % (where, e))
                    continue
                sites.append(where)
                if len(keys) != 1:
                    problems.append("%s: %s beside %s" % (where, mark, keys or "no limit"))
                elif Decimal(str(node[keys[0]])) != Decimal(str(want)):
                    problems.append("%s: %s %s, %s is %s" % (
                        where, keys[0], node[keys[0]], node[mark], want))
            for k, v in node.items():
                walk(v, where + "/" + str(k))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, "%s/%d" % (where, i))

    walk(doc, "#")
    result(sites and not problems, "%d x-limit values equal lib/lc_limits.h" % len(sites), problems)

    # Settings: whole numbers { "name", default, min, max, step } (or
    # { ..., step, LC_SETTING_INT, NULL, NULL, tool_only }), and text
    # { "name", 0, 0, LC_..._MAX, 1, LC_SETTING_TEXT, ... }. A setting
    # set on the server only (tool_only) is marked x-server-only: true.
    src = read(os.path.join(srcdir, "lib/settings.c"))
    rows = re.findall(r'\{\s*"(\w+)",\s*([^,]+),\s*([^,]+),\s*([^,]+),\s*([^,}]+)\}', src)
    longer = re.findall(r'\{\s*"(\w+)",\s*([^,]+),\s*([^,]+),\s*([^,]+),\s*([^,}]+),'
                        r'\s*LC_SETTING_INT,\s*NULL,\s*NULL,\s*(\d+)(?:,\s*\d+,\s*NULL)?\s*\}', src)
    rows += [r[:5] for r in longer]
    server_only = {r[0] for r in longer if r[5] != "0"}
    # A text's longest length is a limit's name or a number; its default
    # is the row's last member (text_def), NULL for "".
    texts = re.findall(r'\{\s*"(\w+)",\s*0,\s*0,\s*(\w+),\s*1,\s*LC_SETTING_TEXT\b'
                       r'[^}]*?,\s*(NULL|"\w*")\s*\}', src)
    sp = doc["components"]["schemas"]["SettingsPatch"]["properties"]
    keys = doc["components"]["schemas"]["SettingKey"]["enum"]
    problems = []
    for name, most, tdef in texts:
        p = sp.get(name)
        if p is None:
            problems.append("%s is not documented" % name)
            continue
        got = (p.get("type"), p.get("default"), p.get("maxLength"))
        want = ("string", "" if tdef == "NULL" else tdef.strip('"'),
                int(most) if most.isdigit() else names.get(most))
        if got != want:
            problems.append("%s: type, default, maxLength %s here, %s in lib/settings.c" % (
                name, got, want))
    for name, d, lo, hi, step in rows:
        d, lo, hi, step = (c_expr(v, {}) for v in (d, lo, hi, step))
        p = sp.get(name)
        if p is None:
            problems.append("%s is not documented" % name)
            continue
        got = (p.get("default"), p.get("minimum"), p.get("maximum"), p.get("multipleOf", 1))
        if tuple(int(v) for v in got) != (d, lo, hi, step):
            problems.append("%s: default, min, max, step %s here, %s in lib/settings.c" % (
                name, got, (d, lo, hi, step)))
    marked = {k for k, v in sp.items() if v.get("x-server-only")}
    if marked != server_only:
        problems.append("x-server-only on %s, set on the server only in lib/settings.c: %s" % (
            sorted(marked), sorted(server_only)))
    every = {r[0] for r in rows} | {t[0] for t in texts}
    if set(sp) != every or set(keys) != every:
        problems.append("settings documented %s, lib/settings.c has %s" % (
            sorted(sp), sorted(every)))
    result(rows and not problems, "settings (%d) are those of lib/settings.c" % len(every), problems)


# --- live answers -------------------------------------------------------------

def read_headers(path):
    """Status and lower-cased headers of the last response in a curl -D
    dump (a 100 Continue comes before)."""
    with open(path, "rb") as f:
        blocks = re.split(rb"\r?\n\r?\n", f.read().strip())
    last = [b for b in blocks if b.startswith(b"HTTP/")]
    if not last:
        return None, {}
    lines = last[-1].decode("latin-1").splitlines()
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            k, v = line.split(":", 1)
            headers[k.strip().lower()] = v.strip()
    return status, headers


SNIFF = {
    "image/svg+xml": lambda b: b"<svg" in b[:400],
    "text/html": lambda b: b"<html" in b[:200].lower(),
    "application/vnd.sqlite3": lambda b: b.startswith(b"SQLite format 3\x00"),
    "text/csv": lambda b: b.count(b"\r\n") >= 1,
}


def check_header(S, name, spec, headers, problems):
    spec = S.deref(spec)
    value = headers.get(name.lower())
    if value is None:
        if spec.get("required"):
            problems.append("header %s is missing" % name)
        return
    schema = S.deref(spec.get("schema", {}))
    if schema.get("type") == "integer":
        if not re.fullmatch(r"\d+", value):
            problems.append("header %s: %r is not a whole number" % (name, value))
            return
        value = int(value)
    for e in S.validate(schema, value, "header " + name):
        problems.append(e)


def live_checks(doc, srcdir, folder):
    S = Schemas(doc)
    status_of = doc["components"]["schemas"]["ErrorCode"]["x-http-status"]
    settings = doc["components"]["schemas"]["SettingsPatch"]["properties"]
    checked_2xx = set()
    n = 0
    for req in sorted(f for f in os.listdir(folder) if f.endswith(".req")):
        base = os.path.join(folder, req[:-4])
        lines = read(base + ".req").split("\n")
        method, url, desc = lines[0], lines[1], lines[2]
        sent_id = lines[3] if len(lines) > 3 else ""
        # The decimals of the shop the request was made in, as recorded.
        recorded = int(lines[4]) if len(lines) > 4 and lines[4].isdigit() else 2
        path = url.split("?", 1)[0]
        status, headers = read_headers(base + ".headers")
        with open(base + ".body", "rb") as f:
            raw = f.read()
        n += 1
        what = "%s %s -> %s: %s" % (method, url if len(url) < 70 else url[:67] + "...",
                                    status, desc)
        problems = []
        if status is None:
            result(False, what, ["no answer"])
            continue
        tmpl = match_path(doc, path)
        item = doc["paths"].get(tmpl, {}) if tmpl else {}
        op = item.get(method.lower())
        ctype = headers.get("content-type", "")
        media = ctype.split(";")[0].strip().lower()
        body = None
        if media == "application/json":
            try:
                body = load_json(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError) as e:
                problems.append("the body is not JSON: %s" % e)
        S.decimals, more = shop_decimals(body, recorded)
        problems += more

        # What the operation documents for this status.
        if op is not None:
            responses = op["responses"]
            r = responses.get(str(status), responses.get("default"))
            if r is None:
                problems.append("status %s is not documented for %s %s (only %s)" % (
                    status, method, tmpl, ", ".join(sorted(map(str, responses)))))
            else:
                r = S.deref(r)
                content = r.get("content", {})
                if media not in content:
                    problems.append("Content-Type %r, documented: %s" % (ctype, ", ".join(content)))
                elif media == "application/json":
                    if body is not None:
                        problems += S.validate(content[media]["schema"], body)
                else:
                    sniff = SNIFF.get(media)
                    if sniff and not sniff(raw):
                        problems.append("the body does not look like %s" % media)
                    ex = content[media].get("example")
                    if media == "text/csv" and isinstance(ex, str):
                        got = raw.decode("utf-8", "replace").split("\r\n", 1)[0]
                        if got != ex.split("\r\n", 1)[0]:
                            problems.append("CSV header %r, documented %r" % (
                                got, ex.split("\r\n", 1)[0]))
                for name, spec in r.get("headers", {}).items():
                    if name == "Content-Disposition" and media == "application/json":
                        continue
                    check_header(S, name, spec, headers, problems)
            # Cache-Control exactly where the operation documents it.
            documented = any("Cache-Control" in r2.get("headers", {})
                             for _, r2 in success_responses(S, op))
            if documented != ("cache-control" in headers):
                problems.append("Cache-Control %s, documented %s" % (
                    headers.get("cache-control", "absent"),
                    "no-store" if documented else "absent"))
        else:
            # 405, or a path of no endpoint: the error body.
            if media != "application/json":
                problems.append("Content-Type %r, an error is application/json" % ctype)
            elif body is not None:
                problems += S.validate(doc["components"]["schemas"]["Error"], body)
            if status == 405:
                r = doc["components"]["responses"]["MethodNotAllowed"]
                for name, spec in r["headers"].items():
                    check_header(S, name, spec, headers, problems)
                allow = set(a.strip() for a in headers.get("allow", "").split(","))
                want = {m.upper() for m in METHODS if m in item}
                if method in allow:
                    problems.append("Allow %s names the method refused" % headers.get("allow"))
                if not want <= allow:
                    problems.append("Allow %s lacks documented %s" % (
                        headers.get("allow"), ", ".join(sorted(want - allow))))
            elif tmpl is None and status != 404:
                problems.append("a path of no endpoint answered %s" % status)
            elif tmpl is not None:
                problems.append("%s %s is not documented" % (method, tmpl))

        # Every answer.
        rid = headers.get("x-request-id")
        if not rid or not re.fullmatch(r"[A-Za-z0-9._-]{1,64}", rid):
            problems.append("X-Request-Id %r" % rid)
        if sent_id and rid != sent_id:
            problems.append("X-Request-Id %r, sent %r" % (rid, sent_id))
        if isinstance(body, dict) and isinstance(body.get("meta"), dict) and \
                body["meta"].get("request_id") != rid:
            problems.append("meta.request_id %r, X-Request-Id %r" % (
                body["meta"].get("request_id"), rid))
        if status == 401 and not headers.get("www-authenticate", "").startswith("Bearer"):
            problems.append("401 without WWW-Authenticate: Bearer")
        if status in (429, 503) and not re.fullmatch(r"[1-9]\d*", headers.get("retry-after", "")):
            problems.append("%s without Retry-After in whole seconds" % status)
        if isinstance(body, dict) and body.get("success") is False:
            code = (body.get("error") or {}).get("code")
            if status_of.get(code) != status:
                problems.append("%s is a %s, answered %s" % (code, status_of.get(code), status))
        if status >= 500:
            problems.append("a server error")

        # The settings answered are the ones documented.
        if op is not None and tmpl.endswith("/admin/settings") and status == 200 and \
                isinstance(body, dict):
            for s in body.get("data", {}).get("settings", []):
                p = settings.get(s.get("key"), {})
                if (s.get("default"), s.get("min"), s.get("max")) != (
                        p.get("default"), p.get("minimum"), p.get("maximum")):
                    problems.append("setting %s: default, min, max %s, documented %s" % (
                        s.get("key"), (s.get("default"), s.get("min"), s.get("max")),
                        (p.get("default"), p.get("minimum"), p.get("maximum"))))

        if op is not None and 200 <= status < 300 and not problems:
            checked_2xx.add((method, tmpl))
        result(not problems, what, problems)

    result(n > 0, "%d live answers recorded" % n)
    for tmpl, method, op in operations(doc):
        result((method, tmpl) in checked_2xx,
               "a live 2xx answer of %s %s (%s) was checked" % (method, tmpl, op.get("operationId")),
               ["no request of the live run got one"])


def main(argv):
    if len(argv) < 4 or argv[3] not in ("--doc", "--live") or (argv[3] == "--live" and len(argv) < 5):
        sys.stderr.write("usage: openapi_check.py SPEC SRCDIR --doc | --live DIR\n")
        return 2
    doc = load_spec(argv[1])
    if argv[3] == "--doc":
        doc_checks(doc, argv[2])
    else:
        live_checks(doc, argv[2], argv[4])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
