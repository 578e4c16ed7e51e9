// verity's behaviour driver for JavaScript (seed 002, V3), CommonJS and ES modules alike
// (dynamic import()). Reads one request as JSON on standard input; writes one result as JSON
// on the last line of standard output, after a marker line holding the request's nonce.
// Arguments and expected values travel as JSON, the function by name; only a `throws` claim's
// code, which is the claim, is compiled.
const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');
const { createRequire } = require('module');

const request = JSON.parse(fs.readFileSync(0, 'utf8'));
const realWrite = process.stdout.write.bind(process.stdout);
// What the code under test prints goes to standard error, away from the result.
process.stdout.write = process.stderr.write.bind(process.stderr);
console.log = console.error;

function finish(result) {
  realWrite('\n' + request.nonce + '\n' + JSON.stringify(result) + '\n', () => process.exit(0));
}

const EXTENSIONS = ['', '.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '/index.js', '/index.mjs', '/index.cjs', '/index.ts'];

function findFile(spec) {
  for (const ext of EXTENSIONS) {
    const candidate = path.resolve(request.root, spec + ext);
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

// `lib/util.js:parse`, `lib/util:Parser.parse`, or `lib.util.parse` (dots as directories).
function locate(name) {
  if (name.includes(':')) {
    const at = name.lastIndexOf(':');
    return { file: findFile(name.slice(0, at)), attrs: name.slice(at + 1).split('.'), module: name.slice(0, at) };
  }
  const parts = name.split('.');
  for (let i = parts.length - 1; i > 0; i--) {
    const file = findFile(parts.slice(0, i).join('/'));
    if (file) return { file, attrs: parts.slice(i), module: parts.slice(0, i).join('/') };
  }
  return { file: null, attrs: [], module: name };
}

async function load(file) {
  return import(pathToFileURL(file).href);
}

function plain(value) {
  const text = JSON.stringify(value);
  return text === undefined ? null : JSON.parse(text);
}

function equal(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && equal(a[k], b[k]));
}

function classNames(error) {
  const names = [];
  let proto = error !== null && typeof error === 'object' ? Object.getPrototypeOf(error) : null;
  while (proto) {
    if (proto.constructor && proto.constructor.name) names.push(proto.constructor.name);
    proto = Object.getPrototypeOf(proto);
  }
  if (error && typeof error === 'object' && typeof error.name === 'string' && !names.includes(error.name)) {
    names.unshift(error.name);
  }
  return names;
}

async function main() {
  if (request.mode === 'returns') {
    const { file, attrs, module } = locate(request.function);
    if (!file) return finish({ outcome: 'missing', message: 'no module file for ' + JSON.stringify(module) });
    const ns = await load(file);
    let obj = ns;
    let holder = null;
    for (const [i, attr] of attrs.entries()) {
      let next = obj == null ? undefined : obj[attr];
      if (next === undefined && i === 0 && ns.default != null) next = ns.default[attr];
      if (next === undefined) {
        return finish({ outcome: 'missing', message: module + ' has no export or property ' + JSON.stringify(attrs.slice(0, i + 1).join('.')) });
      }
      holder = obj;
      obj = next;
    }
    if (typeof obj !== 'function') return finish({ outcome: 'missing', message: request.function + ' is not a function' });
    let result;
    try {
      result = await obj.apply(holder, request.args);
    } catch (e) {
      return finish({ outcome: 'raised', error: classNames(e)[0] || typeof e, message: String(e && e.message !== undefined ? e.message : e).slice(0, 2000) });
    }
    let actual;
    try {
      actual = plain(result);
    } catch (e) {
      return finish({ outcome: 'unrepresentable', repr: String(result).slice(0, 2000) });
    }
    return finish({ outcome: 'returned', actual, equal: equal(actual, request.value) });
  }
  if (request.mode === 'throws') {
    const AsyncFunction = (async () => {}).constructor;
    const requireFromRoot = createRequire(path.join(request.root, 'package.json'));
    const importFromRoot = (spec) => load(findFile(spec) || spec);
    let fn;
    try {
      fn = new AsyncFunction('require', 'importModule', 'return (' + request.code + '\n);');
    } catch (_) {
      try {
        fn = new AsyncFunction('require', 'importModule', request.code);
      } catch (e) {
        return finish({ outcome: 'bad_code', message: String(e.message) });
      }
    }
    try {
      await fn(requireFromRoot, importFromRoot);
    } catch (e) {
      const names = classNames(e);
      return finish({ outcome: 'raised', error: names[0] || typeof e, message: String(e && e.message !== undefined ? e.message : e).slice(0, 2000), matches: names.includes(request.error), classes: names });
    }
    return finish({ outcome: 'no_exception' });
  }
  return finish({ outcome: 'harness', message: 'unknown mode ' + JSON.stringify(request.mode) });
}

main().catch((e) => finish({ outcome: 'harness', message: String(e && e.stack ? e.stack : e).slice(0, 4000) }));
