#!/usr/bin/env python3
"""Fails when an #include points up the layer graph or the layers form a cycle.

The layer file (written by cmake/StinkyTofuLayers.cmake) has one line per
layer:  <target> <include-prefix> <dir>... : <dep-target>...
A file belongs to the layer whose folder holds it most closely (folders are
read recursively, so a layer's sub-folder that is a layer of its own stays
that layer's). A file may include its own layer's headers, those of the
layers it depends on directly or indirectly, and anything that is not ours
(LLVM, the standard library), in quotes or angle brackets alike. An include
of ours is matched to the layer with the longest include prefix. Programs and
tests (tools/, tests/, the Python module) are layers whose prefix is "-":
nothing may include them, and they may include only what they link.
"""
import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*(?:"([^"]+)"|<([^>]+)>)', re.M)
SOURCE_SUFFIXES = ('.cpp', '.h', '.def', '.inc')


def read_layers(path):
    layers = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            head, colon, deps = line.rstrip('\n').partition(' :')
            fields = head.split()
            if not colon or len(fields) < 3:
                sys.exit(f'{path}:{number}: error: expected '
                         '"<target> <prefix> <dir>... : <deps>"')
            target, prefix, dirs = fields[0], fields[1], fields[2:]
            layers[target] = {'prefix': prefix,
                              'dirs': tuple(os.path.normpath(d) for d in dirs),
                              'deps': deps.split()}
    return layers


def find_cycle(layers):
    """A list of targets forming a cycle, or None."""
    state = {}

    def visit(target, path):
        state[target] = 'open'
        for dep in layers[target]['deps']:
            if dep not in layers:
                continue
            if state.get(dep) == 'open':
                return path[path.index(dep):] + [dep]
            if dep not in state:
                cycle = visit(dep, path + [dep])
                if cycle:
                    return cycle
        state[target] = 'done'
        return None

    for target in layers:
        if target not in state:
            cycle = visit(target, [target])
            if cycle:
                return cycle
    return None


def reachable(layers, target):
    seen, todo = {target}, [target]
    while todo:
        for dep in layers[todo.pop()]['deps']:
            if dep in layers and dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return seen


def owner(layers, include):
    best = None
    for target, layer in layers.items():
        if include.startswith(layer['prefix']):
            if best is None or len(layer['prefix']) > len(layers[best]['prefix']):
                best = target
    return best


def folder_owner(layers, path):
    """The layer whose folder holds path most closely."""
    best, best_length = None, -1
    for target, layer in layers.items():
        for directory in layer['dirs']:
            if path.startswith(directory + os.sep) and len(directory) > best_length:
                best, best_length = target, len(directory)
    return best


def layer_files(root, layers, target):
    seen = set()
    for directory in layers[target]['dirs']:
        for folder, subfolders, names in os.walk(os.path.join(root, directory)):
            subfolders.sort()
            for name in sorted(names):
                path = os.path.relpath(os.path.join(folder, name), root)
                if (name.endswith(SOURCE_SUFFIXES) and path not in seen
                        and folder_owner(layers, path) == target):
                    seen.add(path)
                    yield path


def check(root, layers):
    problems = []
    for target, dep in ((t, d) for t in layers for d in layers[t]['deps']):
        if dep not in layers and dep.startswith(('stinkytofu', 'asm_instrument',
                                                 'rocisa_bridge', 'sqtt_')):
            problems.append(f'layer {target} depends on {dep}, which is not a layer')
    cycle = find_cycle(layers)
    if cycle:
        problems.append('layers form a cycle: ' + ' -> '.join(cycle))
        return problems
    for target in layers:
        allowed = reachable(layers, target)
        for path in layer_files(root, layers, target):
            with open(os.path.join(root, path), errors='replace') as f:
                text = f.read()
            for match in INCLUDE.finditer(text):
                name = match.group(1) or match.group(2)
                included = owner(layers, name)
                if included is None or included in allowed:
                    continue
                line = text.count('\n', 0, match.start()) + 1
                problems.append(f'{path}:{line}: error: layer {target} includes '
                                f'"{name}" of layer {included}, which it '
                                f'does not depend on')
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('layers', help='the layer file')
    parser.add_argument('--root', required=True, help='the source tree')
    args = parser.parse_args()
    problems = check(args.root, read_layers(args.layers))
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
