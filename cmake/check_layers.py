#!/usr/bin/env python3
"""Fails when an #include points up the layer graph or the layers form a cycle.

The layer file (written by cmake/StinkyTofuLayers.cmake) has one line per
layer:  <target> <include-prefix> <source-dir> <header-dir> : <dep-target>...
A file of a layer may include its own layer's headers, those of the layers it
depends on directly or indirectly, and anything that is not ours (LLVM, the
standard library). An include of ours is matched to the layer with the
longest include prefix.
"""
import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def read_layers(path):
    layers = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            head, colon, deps = line.rstrip('\n').partition(' :')
            fields = head.split()
            if not colon or len(fields) != 4:
                sys.exit(f'{path}:{number}: error: expected '
                         '"<target> <prefix> <sources> <headers> : <deps>"')
            target, prefix, sources, headers = fields
            layers[target] = {'prefix': prefix, 'dirs': (sources, headers),
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


def layer_files(root, layer):
    for directory in dict.fromkeys(layer['dirs']):
        full = os.path.join(root, directory)
        for name in sorted(os.listdir(full)) if os.path.isdir(full) else []:
            if name.endswith(('.cpp', '.h', '.def')):
                yield os.path.join(directory, name)


def check(root, layers):
    problems = []
    for target, dep in ((t, d) for t in layers for d in layers[t]['deps']):
        if dep not in layers and dep.startswith('stinkytofu'):
            problems.append(f'layer {target} depends on {dep}, which is not a layer')
    cycle = find_cycle(layers)
    if cycle:
        problems.append('layers form a cycle: ' + ' -> '.join(cycle))
        return problems
    for target, layer in layers.items():
        allowed = reachable(layers, target)
        for path in layer_files(root, layer):
            with open(os.path.join(root, path), errors='replace') as f:
                text = f.read()
            for match in INCLUDE.finditer(text):
                included = owner(layers, match.group(1))
                if included is None or included in allowed:
                    continue
                line = text.count('\n', 0, match.start()) + 1
                problems.append(f'{path}:{line}: error: layer {target} includes '
                                f'"{match.group(1)}" of layer {included}, which it '
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
