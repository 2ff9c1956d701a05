#!/usr/bin/env python3
"""Census of MBDyn 2024's input language, with our status.

Reads MBDyn's source tree (default /work/mbdyn-src) and lists, per family of readers, every keyword
a reader accepts: the arguments of `IsKeyWord(...)`, the entries of keyword tables (`const char*
...[] = {...}`, used with KeyTable) and the names registered in MBDyn's run-time tables
(`SetDriveCallerData("...")`, `SetCL1D("...")`, `SetSF("...")`, ...), with the MBDyn file, line and
function that read it. Only the keywords are taken (facts of the language), never code or comments.

The status of each row comes from our tree:
  * `read (census test)` / `not implemented (census test)`: the form is one of tests/census/forms.tsv,
    whose minimal decks utest_census runs (read with no "not implemented", or refused with one);
  * `read (registry)` / `not implemented (kinds table)`: a kind (node, element, joint, force, genel,
    law, drive caller, ...) registered by one of our readers, or only listed in the kinds table
    (mbdyn-like/core/mbdyn_kinds.cpp); utest_census checks these rows against the registry;
  * `read (reader)`: the keyword is a literal of one of our readers (not tested form by form here);
  * `missing`: none of the above.

Usage: python3 docs/conformance/census.py [--mbdyn /work/mbdyn-src] [--out docs/conformance]
writes census.md (one section per family) and census.tsv (the rows, for the test).
"""
import argparse
import collections
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# ---------------------------------------------------------------------------------------------
# MBDyn side

STRING = r'"(?:[^"\\\n]|\\.)*"'
CONCAT = re.compile(r'(' + STRING + r'(?:\s*' + STRING + r')*)')
IS_KEYWORD = re.compile(r'IsKeyWord\s*\(\s*(' + STRING + r'(?:\s*' + STRING + r')*)\s*\)')
REGISTRATION = re.compile(r'\b(Set[A-Z][A-Za-z0-9_]*)\s*\(\s*(' + STRING + r'(?:\s*' + STRING + r')*)\s*,')
TABLE = re.compile(r'char\s*(?:const\s*)?\*\s*(?:const\s*)?([A-Za-z_]\w*)\s*\[\s*\w*\s*\]\s*=\s*\{')
FUNCTION = re.compile(r'^(?:[A-Za-z_][\w:<>\*&,\s]*\s+[\*&]?)?([A-Za-z_][\w]*(?:::[~\w]+)*)\s*\(')
NOT_FUNCTIONS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'case', 'else', 'do', 'catch', 'throw'}


def strip_comments(text):
    """Blanks comments, keeps strings and line breaks (so lines and columns stay)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(''.join(ch if ch == '\n' else ' ' for ch in text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def join_literals(concat):
    """`"initial" "stiffness"` -> "initial stiffness" (MBDyn compares keywords without blanks)."""
    parts = re.findall(STRING, concat)
    return ' '.join(p[1:-1].strip() for p in parts if p[1:-1].strip())


def norm(keyword):
    return re.sub(r'[\s_]+', '', keyword.lower())


# MBDyn source files (by stem) and folders, and the family of readers they hold.
STEM_FAMILIES = [
    (('force', 'strforce', 'resforces', 'extforce', 'strext', 'strmappingext', 'modalforce', 'modalext',
      'modalmappingext'), 'forces and couples'),
    (('strnode',), 'nodes'),
    (('body', 'gravity'), 'bodies, gravity'),
    (('beam', 'beam2', 'hbeam'), 'beams'),
    (('shell', 'shelleas', 'shelleasans', 'membrane'), 'shells and membranes'),
    (('solid', 'solidcsl', 'solidpress'), 'solids and surface loads'),
    (('modal',), 'modal joint and FEM files'),
    (('shape',), 'aerodynamics (shapes)'),
]
DIR_FAMILIES = [
    ('struct/', 'joints'),
    ('aero/', 'aerodynamics (elements, c81, rotors, air properties, gusts)'),
    ('hydr/', 'hydraulics'),
    ('elec/', 'electric elements and genels'),
    ('thermo/', 'thermal elements'),
]


def family_of(path, function):
    """Which family of the input language a reader belongs to (by MBDyn file and function)."""
    rel = path[len('mbdyn/'):] if path.startswith('mbdyn/') else path
    base = os.path.basename(rel)
    stem = base.rsplit('.', 1)[0]
    fn = function or ''
    if rel.startswith('libraries/') or base in ('parser.cc', 'mbpar.cc', 'mbpar.h', 'bufmod.cc'):
        return 'input language (parser, references, hints, definitions)'
    if base == 'mbdyn.cc':
        return 'data block'
    if base == 'dataman3.cc':
        if 'ReadControl' in fn:
            return 'control data'
        return 'nodes'
    if base in ('dataman.cc', 'dataman.h'):
        return 'control data'
    if base in ('solver.cc', 'invsolver.cc', 'readlinsol.cc', 'TimeStepControl.cc', 'noxsolver.cc',
                'rtsolver.cc', 'rtaisolver.cc', 'rtposixsolver.cc', 'schurdataman.cc'):
        return 'initial value block (solver, integrators, linear and nonlinear solvers)'
    if base == 'dataman4.cc' or base in ('loadable.cc', 'userelem.cc', 'bulk.cc'):
        return 'elements (dispatch, output, inertia, driven, loadable, bulk)'
    if base == 'enums.cc':
        return 'card kinds and counters (nodes, elements, drivers blocks)'
    if base == 'output.cc':
        return 'output (units, results)'
    if stem.startswith('constltp') or base in ('shockabsorber.h', 'tdclw.cc') or stem == 'constltp_ann':
        return 'constitutive laws'
    if stem.startswith('tpldrive'):
        return 'template drive callers'
    if stem in ('drive_', 'ddrive', 'bistopdrive', 'ginacdrive', 'privdrive', 'dofdrive', 'shdrive', 'drive'):
        return 'drive callers'
    if stem == 'ScalarFunctionsImpl' or stem == 'scalarvalue':
        return 'scalar functions and scalar values'
    if stem in ('fixedstep', 'varstep', 'sockdrv', 'socketstreamdrive', 'streamdrive', 'bufferstreamdrive',
                'rtai_in_drive', 'auth', 'extsocket'):
        return 'file drivers (drivers block)'
    if stem in ('streamoutelem', 'socketstream_out_elem', 'bufferstream_out_elem'):
        return 'output elements'
    for stems, family in STEM_FAMILIES:
        if stem in stems:
            return family
    for prefix, family in DIR_FAMILIES:
        if rel.startswith(prefix):
            return family
    return 'other (' + rel + ')'


def scan_mbdyn(src):
    rows = []
    roots = [os.path.join(src, 'mbdyn'), os.path.join(src, 'libraries', 'libmbutil')]
    for root in roots:
        for dirpath, _, files in os.walk(root):
            for f in sorted(files):
                if not (f.endswith('.cc') or f.endswith('.h')):
                    continue
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, src)
                if root.endswith('libmbutil') and f not in ('parser.cc', 'bufmod.cc'):
                    continue
                with open(path, encoding='latin-1') as fh:
                    text = strip_comments(fh.read())
                lines = text.split('\n')
                # enclosing function of each line: the last definition line at column 0
                fn_of_line, current = [], ''
                for line in lines:
                    if line[:1].isalpha() or line[:1] == '_':
                        m = FUNCTION.match(line)
                        if m and m.group(1) not in NOT_FUNCTIONS and not line.rstrip().endswith(';'):
                            current = m.group(1)
                    fn_of_line.append(current)
                offsets = [0]
                for line in lines:
                    offsets.append(offsets[-1] + len(line) + 1)

                def line_of(pos):
                    lo, hi = 0, len(offsets) - 1
                    while lo < hi:
                        mid = (lo + hi + 1) // 2
                        if offsets[mid] <= pos:
                            lo = mid
                        else:
                            hi = mid - 1
                    return lo

                def add(kw, pos, how):
                    kw = kw.strip()
                    if not kw or not re.search(r'[A-Za-z]', kw):
                        return
                    ln = line_of(pos)
                    fn = fn_of_line[ln]
                    rows.append(dict(family=family_of(rel, fn), keyword=kw, file=rel, line=ln + 1,
                                     function=fn, how=how))

                for m in IS_KEYWORD.finditer(text):
                    add(join_literals(m.group(1)), m.start(), 'IsKeyWord')
                for m in REGISTRATION.finditer(text):
                    if m.group(1) in ('SetName', 'SetValue', 'SetOutputFlag'):
                        continue
                    add(join_literals(m.group(2)), m.start(), 'registered by ' + m.group(1))
                for m in TABLE.finditer(text):
                    # the keyword tables of KeyTable (sKeyWords, psRead*); ps*Names are messages
                    if not (m.group(1).startswith('sKeyWords') or m.group(1).startswith('psRead')):
                        continue
                    end = text.find('}', m.end())
                    body = text[m.end():end]
                    for lm in CONCAT.finditer(body):
                        add(join_literals(lm.group(1)), m.end() + lm.start(), 'table ' + m.group(1))
    # psReadControlElems names Elem::DRIVEN too, but ReadControl's table leaves that counter out:
    # MBDyn reads no `driven elements:` card.
    rows = [r for r in rows if not (r['how'] == 'table psReadControlElems' and norm(r['keyword']) == 'drivenelements')]
    # one row per (family, keyword, function)
    seen, unique = set(), []
    for r in rows:
        key = (r['family'], norm(r['keyword']), r['function'])
        if key in seen:
            continue
        seen.add(key)
        unique.append(r)
    return unique


# ---------------------------------------------------------------------------------------------
# our side

OUR_DIRS = ['parser', 'integrators', 'mbdyn-like', 'elements', 'scripting']
KIND_FAMILY = re.compile(r'^\s*\{"([a-z ]+)",\s*$|^\s*\{"([a-z ]+)",\s*\{')
KIND_ENTRY = re.compile(r'\{"([^"]+)",\s*"([0-9.]+)"\}')


def read_kinds_table():
    """(family, normalised keyword) -> manual section, from mbdyn-like/core/mbdyn_kinds.cpp."""
    kinds = {}
    family = None
    with open(os.path.join(ROOT, 'mbdyn-like', 'core', 'mbdyn_kinds.cpp')) as fh:
        for line in fh:
            m = KIND_FAMILY.match(line)
            if m:
                family = m.group(1) or m.group(2)
            for e in KIND_ENTRY.finditer(line):
                kinds.setdefault(norm(e.group(1)), (family, e.group(2)))
    return kinds


def read_our_literals():
    """Normalised string literals of our readers; those inside not_implemented(...) calls apart."""
    literals, refused = set(), set()
    for d in OUR_DIRS:
        for dirpath, _, files in os.walk(os.path.join(ROOT, d)):
            for f in files:
                # the kinds table names every kind MBDyn has, read or not: it is no evidence
                if not (f.endswith('.cpp') or f.endswith('.hpp')) or f.startswith('mbdyn_kinds'):
                    continue
                with open(os.path.join(dirpath, f), encoding='utf-8', errors='replace') as fh:
                    text = fh.read()
                for m in re.finditer(STRING, text):
                    s = m.group(0)[1:-1]
                    if len(s) < 60:
                        literals.add(norm(s))
                for m in re.finditer(r'not_implemented\(([^;]*)\)', text):
                    for q in re.finditer(STRING, m.group(1)):
                        for word in re.findall(r'[a-z][a-z0-9 ]+', q.group(0).lower()):
                            refused.add(norm(word))
    return literals, refused


def read_registry():
    """docs/conformance/registry.tsv (written by utest_census): normalised keyword -> registry."""
    reg = {}
    path = os.path.join(HERE, 'registry.tsv')
    if os.path.exists(path):
        with open(path) as fh:
            next(fh, None)
            for line in fh:
                r, k = line.rstrip('\n').split('\t')
                reg.setdefault(k, r)
    return reg


def read_forms():
    """tests/census/forms*.tsv: block, card, expectation, census keyword, covered MBDyn rows."""
    forms, ranges = {}, []
    folder = os.path.join(ROOT, 'tests', 'census')
    paths = sorted(os.path.join(folder, n) for n in os.listdir(folder)
                   if n.startswith('forms') and n.endswith('.tsv'))
    for path in paths:
        with open(path) as fh:
            for line in fh:
                if not line.strip() or line.startswith('#'):
                    continue
                cols = line.rstrip('\n').split('\t')
                expect, keyword = cols[2].strip(), cols[3].strip()
                # Keywords prove rows of the blocks' families only for forms of those blocks (an
                # element form's `tolerance` is not control data's); other rows go by their range.
                if cols[0].strip() in ('data', 'controldata', 'initialvalue', 'inversedynamics'):
                    for k in keyword.split('|'):
                        forms.setdefault(norm(k), expect)
                if len(cols) > 4 and cols[4].strip():
                    f, span = cols[4].strip().rsplit(':', 1)
                    first, last = (int(x) for x in span.split('-'))
                    ranges.append((f, first, last, expect))
    return forms, ranges


def status_of(row, kinds, literals, refused, forms, ranges, registry):
    k = norm(row['keyword'])
    in_blocks = row['family'] in ('control data', 'data block') or row['family'].startswith('initial value')
    if in_blocks and k in forms:
        return forms[k] + ' (census test)'
    for f, first, last, expect in ranges:
        if row['file'] == f and first <= row['line'] <= last:
            return expect + ' (census test)'
    dispatch = row['how'].startswith('table') or row['how'].startswith('registered')
    if dispatch and k in registry:
        return f'read (registry: {registry[k]})'
    if dispatch and k in kinds and k not in literals:
        fam, sec = kinds[k]
        return f'not implemented (kinds table: {fam}, input manual §{sec})'
    if k in literals:
        return 'read (reader)'
    if k in refused:
        return 'not implemented (reader)'
    return 'missing'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--mbdyn', default='/work/mbdyn-src')
    ap.add_argument('--out', default=HERE)
    a = ap.parse_args()
    if not os.path.isdir(os.path.join(a.mbdyn, 'mbdyn')):
        sys.exit('census.py: no MBDyn source tree at ' + a.mbdyn)
    rows = scan_mbdyn(a.mbdyn)
    kinds = read_kinds_table()
    literals, refused = read_our_literals()
    forms, ranges = read_forms()
    registry = read_registry()
    for r in rows:
        r['status'] = status_of(r, kinds, literals, refused, forms, ranges, registry)
    by_family = collections.OrderedDict()
    for r in sorted(rows, key=lambda r: (r['family'], r['file'], r['line'])):
        by_family.setdefault(r['family'], []).append(r)

    with open(os.path.join(a.out, 'census.tsv'), 'w') as fh:
        fh.write('family\tkeyword\tstatus\tmbdyn file\tline\tfunction\thow\n')
        for fam, rs in by_family.items():
            for r in rs:
                fh.write('\t'.join([fam, r['keyword'], r['status'], r['file'], str(r['line']), r['function'],
                                    r['how']]) + '\n')
    with open(os.path.join(a.out, 'census.md'), 'w') as fh:
        fh.write('# Census of MBDyn 2024\'s input language\n\n')
        fh.write('Generated by `python3 docs/conformance/census.py` from MBDyn 2024\'s source (develop, March 2024)\n'
                 'and our tree; do not edit by hand. See [README.md](README.md) for what each status means and\n'
                 'which test checks it.\n\n')
        fh.write('| family | rows | read (census test) | read (reader) | kind (registry) | not implemented | missing |\n')
        fh.write('|---|---:|---:|---:|---:|---:|---:|\n')
        totals = collections.Counter()
        for fam, rs in by_family.items():
            c = collections.Counter()
            for r in rs:
                s = r['status']
                if s.endswith('(census test)') and not s.startswith('not implemented'):
                    c['census'] += 1
                elif s.startswith('read (registry'):
                    c['kind'] += 1
                elif s.startswith('read'):
                    c['reader'] += 1
                elif s.startswith('not implemented'):
                    c['not implemented'] += 1
                else:
                    c['missing'] += 1
            c['rows'] = len(rs)
            totals.update(c)
            anchor = re.sub(r'[^a-z0-9 -]', '', fam.lower()).replace(' ', '-')
            fh.write(f"| [{fam}](#{anchor}) | {c['rows']} | {c['census']} | {c['reader']} | {c['kind']} | "
                     f"{c['not implemented']} | {c['missing']} |\n")
        fh.write(f"| **total** | {totals['rows']} | {totals['census']} | {totals['reader']} | {totals['kind']} | "
                 f"{totals['not implemented']} | {totals['missing']} |\n\n")
        for fam, rs in by_family.items():
            fh.write(f'## {fam}\n\n| keyword | status | MBDyn file:line | function | how MBDyn reads it |\n'
                     '|---|---|---|---|---|\n')
            for r in rs:
                fh.write(f"| `{r['keyword']}` | {r['status']} | {r['file']}:{r['line']} | {r['function']} | "
                         f"{r['how']} |\n")
            fh.write('\n')
    print(f"census: {len(rows)} rows in {len(by_family)} families")


if __name__ == '__main__':
    main()
