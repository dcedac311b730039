#!/usr/bin/env python3
"""Puts the demo shop's ids into the requests Portman generated.

    demo_ids.py COLLECTION OUT NAME=VALUE...

COLLECTION is the Postman collection Portman wrote from docs/openapi.yaml;
its requests carry the document's example values (ids, card codes). Each
NAME below stands for the examples the document uses for it; they are
replaced, wherever they occur, by VALUE, the demo's, so that the generated
requests reach past "not found". The response examples are dropped (the
run does not use them). Writes OUT. Python 3 standard library only.
"""

import json
import sys

# The document's example values, by what they stand for.
EXAMPLES = {
    "location": ["039809b4-802f-4567-9bf7-0c0e62cd1a34"],
    "staff": ["97215911-74c5-471c-af34-fa182107bb23"],
    "card": ["17e4690c-90c6-4c2e-97d7-d7eae55cbf30"],
    "cashback_card": ["1af53781-fcd4-441a-8efd-58be661197ce"],
    "barcode": ["2971195249858"],
    "qr": ["Tlpcl9ZMbtpl3VZtF9kb334SeshgZso2"],
}


def main(argv):
    if len(argv) < 3:
        sys.stderr.write("usage: demo_ids.py COLLECTION OUT NAME=VALUE...\n")
        return 2
    with open(argv[1], encoding="utf-8") as f:
        coll = json.load(f)

    def strip(items):
        for it in items:
            if "item" in it:
                strip(it["item"])
            else:
                it.pop("response", None)

    strip(coll.get("item", []))
    text = json.dumps(coll)
    done = []
    for arg in argv[3:]:
        name, _, value = arg.partition("=")
        if name not in EXAMPLES:
            sys.stderr.write("demo_ids.py: unknown name %s\n" % name)
            return 2
        for ex in EXAMPLES[name]:
            n = text.count(ex)
            text = text.replace(ex, value)
            done.append("%s: %s replaced %d times" % (name, ex, n))
    with open(argv[2], "w", encoding="utf-8") as f:
        f.write(text)
    print("\n".join(done))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
