#!/usr/bin/env python3
"""A reference OpenAPI -> UI pipeline behind verity's `command` provider (seed 004's full pipeline).

    parse -> api_ir (pure code) -> the model plans the UI (the only drift source) -> normalize

verity writes one JSON request on standard input (the task's prompt is the OpenAPI document;
`params` carries temperature, seed and max_tokens; `model` the model to use) and reads one JSON
answer from standard output:

    {"output": <UI spec, JSON text>, "artifacts": {"api_ir": ..., "ui_plan": ...}, "usage": ...}

The artifacts let verity's `stages` scorer say which stage drifted first when epochs differ:
`api_ir` must never drift (it is pure code); `ui_plan` is the model's raw plan; the output is
the normalized plan. The model is verity's embedded one, called through `verity model
generate` with the plan schema enforced while decoding (`$VERITY_EXE`: the verity that runs
this pipeline; `VERITY_MODEL_ARGS` adds arguments, e.g. a models directory).

Standard library only.
"""

import json
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "..", "schemas", "ui-plan.json")
HTTP_METHODS = ("get", "put", "post", "delete", "patch")
VERSION = re.compile(r"^v?\d+(\.\d+)*$")
VIEW_ORDER = {"list": 0, "detail": 1, "create": 2, "edit": 3}
WIDGETS = {"integer": "number", "number": "number", "boolean": "checkbox", "object": "json", "array": "json"}
FORMAT_WIDGETS = {"date": "date", "date-time": "datetime", "email": "email", "uri": "url", "url": "url"}


def fail(message):
    print(f"pipeline: {message}", file=sys.stderr)
    sys.exit(1)


# --- stage 1: parse -> api_ir (deterministic) ----------------------------------------------

def resolve(doc, schema, seen=()):
    """A schema with local $refs followed and allOf merged (cycles cut)."""
    if not isinstance(schema, dict):
        return {}
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        if ref in seen:
            return {"type": "object"}
        node = doc
        for part in ref[2:].split("/"):
            node = node.get(part.replace("~1", "/").replace("~0", "~"), {}) if isinstance(node, dict) else {}
        return resolve(doc, node, seen + (ref,))
    if "allOf" in schema:
        merged = {"type": "object", "properties": {}, "required": []}
        for part in schema["allOf"]:
            part = resolve(doc, part, seen)
            merged["properties"].update(part.get("properties", {}))
            merged["required"] += part.get("required", [])
        return merged
    return schema


def fields_of(doc, schema):
    schema = resolve(doc, schema)
    if schema.get("type") == "array":
        schema = resolve(doc, schema.get("items", {}))
    required = set(schema.get("required", []))
    out = []
    for name, prop in (schema.get("properties") or {}).items():
        prop = resolve(doc, prop)
        field = {"name": name, "type": prop.get("type", "string"), "required": name in required}
        for key in ("format", "enum"):
            if key in prop:
                field[key] = prop[key]
        out.append(field)
    return out


def operation_schemas(operation):
    """The schemas an operation returns (2xx JSON) and takes (its request body)."""
    out = []
    for status, response in sorted((operation.get("responses") or {}).items()):
        if str(status).startswith("2") and isinstance(response, dict):
            for media, content in sorted((response.get("content") or {}).items()):
                if "json" in media and "schema" in content:
                    out.append(content["schema"])
    body = (operation.get("requestBody") or {}).get("content") or {}
    for media, content in sorted(body.items()):
        if "schema" in content:
            out.append(content["schema"])
    return out


def parameter_fields(doc, operation, item):
    """Path and query parameters, as fields (the item's shared ones too)."""
    out = []
    for param in list(item.get("parameters") or []) + list(operation.get("parameters") or []):
        param = resolve(doc, param)
        if param.get("in") in ("path", "query") and isinstance(param.get("name"), str):
            schema = resolve(doc, param.get("schema") or {})
            field = {"name": param["name"], "type": schema.get("type", "string"), "required": bool(param.get("required"))}
            if "enum" in schema:
                field["enum"] = schema["enum"]
            out.append(field)
    return out


def api_ir(doc):
    """Resources (by the deepest static path segment, or webhook name), their operations and
    fields, in a canonical order."""
    resources = {}

    def add(slug, method, path, operation, item):
        res = resources.setdefault(slug, {"operations": [], "fields": []})
        res["operations"].append({"method": method, "path": path, "operationId": operation.get("operationId", "")})
        found = [f for schema in operation_schemas(operation) for f in fields_of(doc, schema)]
        for f in found + parameter_fields(doc, operation, item):
            if f["name"] not in {known["name"] for known in res["fields"]}:
                res["fields"].append(f)

    for path, item in sorted((doc.get("paths") or {}).items()):
        # The resource is the deepest static segment (`/users/{id}/posts` -> posts), version
        # segments (`2.0`, `v1`) aside.
        segments = [s for s in path.split("/") if s and not s.startswith("{") and not VERSION.match(s)]
        slug = re.sub(r"[^a-z0-9]+", "-", (segments[-1] if segments else "root").lower()).strip("-")
        for method in HTTP_METHODS:
            if isinstance(item, dict) and method in item:
                add(slug, method, path, item[method], item)
    for name, item in sorted((doc.get("webhooks") or {}).items()):
        slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
        for method in HTTP_METHODS:
            if isinstance(item, dict) and method in item:
                add(slug, method, f"webhook:{name}", item[method], item)
    info = doc.get("info") or {}
    return {"title": info.get("title", ""), "openapi": doc.get("openapi", ""), "resources": resources}


# --- stage 2: the model plans the UI --------------------------------------------------------

PROMPT = """Plan the screens of an admin app for the API below, described as resources with their operations and fields.

Return a JSON object {{"resources": {{...}}}} with one entry per resource below, keyed by its slug. For each resource:
- "title": a human title;
- "fields": its fields, each {{"name", "label", "widget", "required"}}; widget is one of text, textarea, number, checkbox, select (for enums), date, datetime, email, url, json (objects and arrays);
- "views": a "list" view with the few fields that identify an item, a "detail" view with all fields, and a "create" view when there is a post operation; a view lists field names.

API: {ir}
"""


def plan(ir, request):
    params = request.get("params") or {}
    exe = os.environ.get("VERITY_EXE") or "verity"
    argv = [exe, "model", "generate", "--json", "--schema", SCHEMA]
    if request.get("model"):
        argv += ["--model", request["model"]]
    if params.get("temperature") is not None:
        argv += ["--temperature", str(params["temperature"])]
    if params.get("seed") is not None:
        argv += ["--seed", str(params["seed"])]
    argv += ["--max-tokens", str(params.get("max_tokens") or 768)]
    argv += shlex.split(os.environ.get("VERITY_MODEL_ARGS", ""))
    system = "You design user interfaces from API descriptions. Answer with JSON only."
    argv += ["--system", system]
    prompt = PROMPT.format(ir=json.dumps(ir["resources"], separators=(",", ":"), sort_keys=True))
    done = subprocess.run(argv, input=prompt, capture_output=True, text=True)
    if done.returncode != 0:
        fail(f"the model call failed (exit {done.returncode}): {done.stderr.strip()[-600:]}")
    answer = json.loads(done.stdout)
    try:
        planned = json.loads(answer["text"])
    except json.JSONDecodeError as e:
        planned = {"unparsed": answer["text"], "error": str(e)}
    return planned, answer.get("usage") or {}


# --- stage 3: normalize (deterministic) -----------------------------------------------------

def widget_for(field):
    if "enum" in field:
        return "select"
    if field.get("format") in FORMAT_WIDGETS:
        return FORMAT_WIDGETS[field["format"]]
    return WIDGETS.get(field.get("type"), "text")


def label_for(name):
    words = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name).replace("_", " ").split()
    return " ".join(w[:1].upper() + w[1:] for w in words) or name


def normalize(planned, ir):
    """The plan made canonical: the API's resources and fields (in the API's order), the
    model's labels and views where they name real fields, sorted views, no duplicates."""
    planned_resources = planned.get("resources") if isinstance(planned, dict) else None
    planned_resources = planned_resources if isinstance(planned_resources, dict) else {}
    out = {}
    for slug, res in sorted(ir["resources"].items()):
        mine = planned_resources.get(slug) or {}
        labels = {}
        for f in mine.get("fields") or []:
            if isinstance(f, dict) and isinstance(f.get("name"), str) and isinstance(f.get("label"), str):
                labels.setdefault(f["name"], f["label"].strip())
        names = [f["name"] for f in res["fields"]] or ["id"]
        fields = []
        for f in res["fields"] or [{"name": "id", "type": "string", "required": True}]:
            fields.append({
                "name": f["name"],
                "label": labels.get(f["name"]) or label_for(f["name"]),
                "widget": widget_for(f),
                "required": bool(f.get("required")),
            })
        views = {}
        for v in mine.get("views") or []:
            if not isinstance(v, dict) or v.get("kind") not in VIEW_ORDER or v["kind"] in views:
                continue
            shown = []
            for n in v.get("fields") or []:
                if n in names and n not in shown:
                    shown.append(n)
            if shown:
                views[v["kind"]] = shown
        views.setdefault("list", names[:3])
        views.setdefault("detail", names)
        out[slug] = {
            "title": (mine.get("title") or label_for(slug)).strip() if isinstance(mine.get("title", ""), str) else label_for(slug),
            "fields": fields,
            "views": [{"kind": k, "fields": views[k]} for k in sorted(views, key=VIEW_ORDER.get)],
        }
    return {"resources": out}


def main():
    try:
        request = json.load(sys.stdin)
    except json.JSONDecodeError as e:
        fail(f"the request is not JSON: {e}")
    messages = request.get("messages") or []
    document = next((m.get("content", "") for m in reversed(messages) if m.get("role") == "user"), "")
    try:
        doc = json.loads(document)
    except json.JSONDecodeError as e:
        fail(f"the task's prompt is not an OpenAPI document in JSON: {e}")
    ir = api_ir(doc)
    if not ir["resources"]:
        fail("the OpenAPI document has no paths or webhooks with operations")
    planned, usage = plan(ir, request)
    spec = normalize(planned, ir)
    print(json.dumps({
        "output": json.dumps(spec, indent=1, sort_keys=False),
        "artifacts": {"api_ir": ir, "ui_plan": planned},
        "usage": {"input_tokens": usage.get("input_tokens", 0), "output_tokens": usage.get("output_tokens", 0)},
    }))


if __name__ == "__main__":
    main()
