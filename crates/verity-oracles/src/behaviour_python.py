# verity's behaviour driver for Python (seed 002, V3). Reads one request as JSON on standard
# input; writes one result as JSON on the last line of standard output, after a marker line
# holding the request's nonce. Nothing of the request is ever spliced into code: arguments and
# expected values travel as JSON, the function by name; only a `throws` claim's code, which is
# the claim, is compiled.
import ast
import builtins
import importlib
import json
import os
import sys
import traceback

request = json.load(sys.stdin)
nonce = request["nonce"]
real_stdout = os.fdopen(os.dup(1), "w")
# What the code under test prints goes to standard error, away from the result.
sys.stdout = sys.stderr
root = request["root"]
for extra in (os.path.join(root, "src"), root):
    if os.path.isdir(extra):
        sys.path.insert(0, extra)


def finish(result):
    real_stdout.write("\n" + nonce + "\n" + json.dumps(result) + "\n")
    real_stdout.flush()
    os._exit(0)


def import_longest(parts):
    """Imports the longest importable module prefix of parts; (module, rest) or (None, why)."""
    last_error = None
    for i in range(len(parts), 0, -1):
        name = ".".join(parts[:i])
        try:
            return importlib.import_module(name), parts[i:]
        except ModuleNotFoundError as e:
            if e.name is not None and not name.startswith(e.name) and not e.name.startswith(name):
                raise
            last_error = "no module named " + repr(name)
    return None, last_error or "nothing to import"


def resolve(path):
    if ":" in path:
        module_name, attrs = path.split(":", 1)
        module = importlib.import_module(module_name)
        rest = attrs.split(".")
    else:
        module, rest = import_longest(path.split("."))
        if module is None:
            return None, rest
    obj = module
    where = module.__name__
    for attr in rest:
        if not hasattr(obj, attr):
            return None, "%s has no attribute %r" % (where, attr)
        obj = getattr(obj, attr)
        where = where + "." + attr
    return obj, None


def plain(value):
    """The value as JSON sees it (tuples become lists), or raises TypeError."""
    return json.loads(json.dumps(value, allow_nan=True))


def class_names(cls):
    names = []
    for c in cls.__mro__:
        names.append(c.__name__)
        names.append(c.__module__ + "." + c.__qualname__)
        names.append(c.__qualname__)
    return names


def names_for(code):
    """Binds the top-level names the code uses that builtins do not have, by importing them."""
    tree = ast.parse(code, "<claim>", "exec")
    chains = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            parts = []
            cur = node
            while isinstance(cur, ast.Attribute):
                parts.append(cur.attr)
                cur = cur.value
            if isinstance(cur, ast.Name):
                parts.append(cur.id)
                chains.append(list(reversed(parts)))
        elif isinstance(node, ast.Name):
            chains.append([node.id])
    namespace = {}
    for chain in sorted(chains, key=len, reverse=True):
        top = chain[0]
        if hasattr(builtins, top):
            continue
        for i in range(len(chain), 0, -1):
            try:
                importlib.import_module(".".join(chain[:i]))
                namespace[top] = importlib.import_module(top)
                break
            except ImportError:
                continue
    return namespace


mode = request["mode"]
try:
    if mode == "returns":
        function, why = resolve(request["function"])
        if function is None:
            finish({"outcome": "missing", "message": why})
        if not callable(function):
            finish({"outcome": "missing", "message": "%s is not callable" % request["function"]})
        try:
            result = function(*request["args"])
        except BaseException as e:
            finish({"outcome": "raised", "error": type(e).__name__, "message": str(e)[:2000],
                    "traceback": traceback.format_exc()[-4000:]})
        try:
            actual = plain(result)
        except (TypeError, ValueError):
            finish({"outcome": "unrepresentable", "repr": repr(result)[:2000]})
        finish({"outcome": "returned", "actual": actual, "equal": actual == request["value"]})
    elif mode == "throws":
        code = request["code"]
        try:
            compiled = compile(code, "<claim>", "eval")
        except SyntaxError:
            try:
                compiled = compile(code, "<claim>", "exec")
            except SyntaxError as e:
                finish({"outcome": "bad_code", "message": str(e)})
        namespace = names_for(code)
        try:
            eval(compiled, namespace)
        except BaseException as e:
            names = class_names(type(e))
            finish({"outcome": "raised", "error": type(e).__name__, "message": str(e)[:2000],
                    "matches": request["error"] in names, "classes": names[::3]})
        finish({"outcome": "no_exception"})
    else:
        finish({"outcome": "harness", "message": "unknown mode " + repr(mode)})
except BaseException as e:
    finish({"outcome": "harness", "message": "%s: %s" % (type(e).__name__, e),
            "traceback": traceback.format_exc()[-4000:]})
