#!/usr/bin/env python3
"""cmake/check_layers.py on small trees: what it must accept and refuse.

Usage: check_layers_test.py SOURCE_ROOT LAYER_FILE
Also checks the real tree (SOURCE_ROOT with the build's LAYER_FILE).
"""
import os
import subprocess
import sys
import tempfile
import unittest

SOURCE_ROOT, LAYER_FILE = sys.argv[1], sys.argv[2]
CHECKER = os.path.join(SOURCE_ROOT, 'cmake', 'check_layers.py')

# low <- mid <- high, and side beside mid.
LAYERS = """\
t_low p/low/ lib/low inc/p/low :
t_mid p/mid/ lib/mid inc/p/mid : t_low
t_side p/side/ lib/side inc/p/side : t_low
t_high p/high/ lib/high inc/p/high : t_mid
"""


def run_checker(files, layers=LAYERS):
    with tempfile.TemporaryDirectory() as root:
        for path, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(root, path), 'w') as f:
                f.write(text)
        layer_file = os.path.join(root, 'layers.txt')
        with open(layer_file, 'w') as f:
            f.write(layers)
        done = subprocess.run([sys.executable, CHECKER, '--root', root, layer_file],
                              capture_output=True, text=True)
        return done.returncode, done.stderr


class CheckLayersTest(unittest.TestCase):
    def test_down_and_transitive_includes_pass(self):
        code, err = run_checker({
            'lib/high/A.cpp': '#include "p/high/A.h"\n#include "p/mid/B.h"\n'
                              '#include "p/low/C.h"\n#include "llvm/ADT/X.h"\n',
            'inc/p/mid/B.h': '#include "p/low/C.h"\n',
        })
        self.assertEqual((code, err), (0, ''))

    def test_upward_include_fails_with_position(self):
        code, err = run_checker({
            'lib/low/A.cpp': '// x\n#include "p/low/A.h"\n#include "p/high/H.h"\n'})
        self.assertEqual(code, 1)
        self.assertIn('lib/low/A.cpp:3: error: layer t_low includes "p/high/H.h" '
                      'of layer t_high', err)

    def test_sideways_include_fails(self):
        code, err = run_checker({'inc/p/mid/M.h': '#include "p/side/S.h"\n'})
        self.assertEqual(code, 1)
        self.assertIn('inc/p/mid/M.h:1: error: layer t_mid includes', err)

    def test_sub_folders_are_read(self):
        code, err = run_checker({'lib/low/deep/er/A.cpp': '#include "p/high/H.h"\n'})
        self.assertEqual(code, 1)
        self.assertIn('lib/low/deep/er/A.cpp:1: error: layer t_low includes', err)

    def test_angle_bracket_includes_are_read(self):
        code, err = run_checker({'inc/p/low/L.h': '#include <vector>\n#include <p/high/H.h>\n'})
        self.assertEqual(code, 1)
        self.assertIn('inc/p/low/L.h:2: error: layer t_low includes "p/high/H.h"', err)

    def test_a_layer_folder_inside_another_belongs_to_itself(self):
        # t_all's folder lib/ holds t_low's lib/low: a file there is t_low's.
        layers = LAYERS + 't_all p/all/ lib inc/p/all : t_high\n'
        code, err = run_checker({'lib/All.cpp': '#include "p/high/H.h"\n',
                                 'lib/low/A.cpp': '#include "p/mid/M.h"\n'}, layers)
        self.assertEqual(code, 1)
        self.assertNotIn('lib/All.cpp', err)
        self.assertIn('lib/low/A.cpp:1: error: layer t_low includes "p/mid/M.h"', err)

    def test_programs_include_only_what_they_link(self):
        layers = LAYERS + 't_tool - tools/x tests/x : t_mid\n'
        code, err = run_checker({'tools/x/main.cpp': '#include "p/mid/M.h"\n#include "p/low/L.h"\n',
                                 'tests/x/sub/XTest.cpp': '#include <p/side/S.h>\n'}, layers)
        self.assertEqual(code, 1)
        self.assertNotIn('tools/x/main.cpp', err)
        self.assertIn('tests/x/sub/XTest.cpp:1: error: layer t_tool includes "p/side/S.h"', err)

    def test_the_real_tree_covers_tools_tests_and_python(self):
        with open(LAYER_FILE) as f:
            dirs = {d for line in f for d in line.partition(' :')[0].split()[2:]}
        for folder in ('tools/stinkytofu-opt', 'tests/unit', 'tests/fuzz',
                       'rocisa-bridge/python', 'tests/rocisa-bridge'):
            self.assertIn(folder, dirs)

    def test_cycle_fails(self):
        cyclic = LAYERS.replace('t_low p/low/ lib/low inc/p/low :',
                                't_low p/low/ lib/low inc/p/low : t_high')
        code, err = run_checker({}, cyclic)
        self.assertEqual(code, 1)
        self.assertIn('layers form a cycle: ', err)

    def test_the_real_tree_passes(self):
        done = subprocess.run([sys.executable, CHECKER, '--root', SOURCE_ROOT, LAYER_FILE],
                              capture_output=True, text=True)
        self.assertEqual((done.returncode, done.stderr), (0, ''))


if __name__ == '__main__':
    unittest.main(argv=[sys.argv[0]])
