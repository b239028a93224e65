# make link-order: the functions of BINARY that the callgrind profiles ran, most instructions first (one mangled
# name a line: lld's --symbol-ordering-file).  python3 link-order.py BINARY PROFILE...
import collections
import os
import re
import sys

binary = os.path.realpath(sys.argv[1])
cost = collections.Counter()
for path in sys.argv[2:]:
    objects, functions = {}, {}
    current_object = current_function = None
    after_calls = False
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        match = re.match(r"^(c?ob)=\((\d+)\)(?: (.*))?$", line)
        if match:
            kind, number, name = match.groups()
            if name:
                objects[number] = os.path.realpath(name)
            if kind == "ob":
                current_object = objects.get(number)
            continue
        match = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line)
        if match:
            kind, number, name = match.groups()
            if name:
                functions[number] = name
            if kind == "fn":
                current_function = functions.get(number)
                if current_object == binary:
                    cost[current_function] += 0  # ran, even if its cost lines are elsewhere
            continue
        if line.startswith("calls="):
            after_calls = True  # the next cost line is the call's inclusive cost, not this function's own
            continue
        if line[:1].isdigit() or line[:1] in "+-*":
            if after_calls:
                after_calls = False
                continue
            fields = line.split()
            if current_object == binary and len(fields) >= 2 and fields[1].isdigit():
                cost[current_function] += int(fields[1])
for name, _ in sorted(cost.items(), key=lambda item: (-item[1], item[0])):
    if name and not name.startswith("0x"):
        print(name)
