#!/usr/bin/env python3
"""corrupt.py GOOD COPY FILE ACTION [ARGS]: copies the fixture directory GOOD
to COPY and damages FILE (relative to its ui_output directory) in one way:
  replace OLD NEW   the first OLD becomes NEW (bytes)
  truncate N        keep the first N bytes
  delete            remove the file
"""
import os
import shutil
import sys

good, copy, name, action = sys.argv[1:5]
shutil.copytree(good, copy)
ui = [d for d in os.listdir(copy) if d.startswith("ui_output")][0]
path = os.path.normpath(os.path.join(copy, ui, name))
if action == "delete":
    os.remove(path)
else:
    data = open(path, "rb").read()
    if action == "truncate":
        data = data[:int(sys.argv[5])]
    elif action == "replace":
        old, new = sys.argv[5].encode(), sys.argv[6].encode()
        if old not in data:
            sys.exit("corrupt.py: %r not in %s" % (old, path))
        data = data.replace(old, new, 1)
    else:
        sys.exit("corrupt.py: unknown action " + action)
    open(path, "wb").write(data)
