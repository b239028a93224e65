# make link-order: the functions of BINARY that the callgrind profiles ran, most instructions first (one mangled
# name a line: lld's --symbol-ordering-file), a group of profiles after another (--then).
#
#   python3 link-order.py BINARY [--map MAP [--with REGEX]] PROFILE... [--then PROFILE...]...
#
# With --map (lld's -Map of BINARY's link, --no-demangle), the functions that sit in a large input section come
# last: lld moves a whole section to where its first listed function goes, and an object compiled without function
# sections keeps many functions in one `.text` (the static Swift libraries' own: the standard library's internal
# functions are one 1.5 MB section; our modules too, before RELEASE_FLAGS gave them -function-sections). Listed in
# plain order, the few functions that ran of each such section brought all of it into the front, and the functions
# that run, spread over 9 MB between them, kept that much resident (the kernel maps 64 kB around each page
# touched). Sections that hold one function each come first, packed; the large ones after, in the same order.
import collections
import os
import re
import sys

LARGE_SECTION = 16 * 1024

binary = os.path.realpath(sys.argv[1])
arguments = sys.argv[2:]
section_size = {}
text_symbols = {}  # each function's input section (object:section)
if arguments[:1] == ["--map"]:
    # lld's map: a header naming the columns, then output sections, their input sections and the symbols in each,
    # each kind one column further right.
    lines = open(arguments[1], errors="replace")
    arguments = arguments[2:]
    header = next(lines)
    input_column, symbol_column = header.index(" In ") + 1, header.index("Symbol")
    output, size = None, 0
    for line in lines:
        fields = line.split()
        if len(fields) < 5 or len(line) <= input_column - 8:
            continue
        if line[input_column - 8] != " ":  # an output section
            output = line[input_column - 8:].strip()
        elif line[input_column] != " ":  # an input section
            size = int(fields[2], 16)
            section = line[input_column:].strip()
        elif output.startswith(".text") and len(line) > symbol_column and line[symbol_column] != " ":
            # A local name can be in several objects (`objectdestroyTm`, `__swift_allocate_boxed_opaque_existential_1Tm`
            # in the standard library's section and in FoundationEssentials' and the regex parser's...): lld moves
            # every section holding it, so the name counts as large if any of them is.
            symbol = line[symbol_column:].strip()
            section_size[symbol] = max(size, section_size.get(symbol, 0))
            text_symbols[symbol] = section
with_pattern = None
if arguments[:1] == ["--with"]:
    # Functions the profiles cannot show that the first group runs all the same: those whose name or input
    # section (object:section) a regular expression finds.
    with_pattern = re.compile(arguments[1])
    arguments = arguments[2:]


def profile_cost(path):
    """The instructions each function of BINARY ran in one callgrind profile (0 for one that ran but whose cost
    lines are elsewhere)."""
    cost = collections.Counter()
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
    return cost


# Groups of profiles, separated by --then: all that the first group ran comes first, then what the next group ran
# that is not listed yet, and so on. A process touches the functions of its own group and those before it, so the
# group the memory goal is about (the networked host and joiner) goes first and its code is one dense run of pages
# rather than spread among the menu's and --help's.
groups = [[]]
for argument in arguments:
    if argument == "--then":
        groups.append([])
    else:
        groups[-1].append(argument)
listed = set()
for group in groups:
    cost = collections.Counter()
    for path in group:
        cost.update(profile_cost(path))
    if with_pattern and group is groups[0]:
        cost.update({symbol: 0 for symbol, section in text_symbols.items()
                     if with_pattern.search(symbol) or with_pattern.search(section)})
    ranked = [name for name, _ in sorted(cost.items(), key=lambda item: (-item[1], item[0]))
              if name and not name.startswith("0x") and name not in listed]
    for name in sorted(ranked, key=lambda name: section_size.get(name, 0) > LARGE_SECTION):  # stable: rank kept
        print(name)
    listed.update(ranked)
