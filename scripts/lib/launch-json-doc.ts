/**
 * docs/launch-json.md's attribute table, generated from package.json's
 * contributes.debuggers[0].configurationAttributes (launch and attach) so it cannot drift:
 * `npx tsx scripts/launch-json-doc.ts` rewrites the block between the markers, and
 * test/docs/launch-json.test.ts fails when the doc's block is not what this renders, or when the
 * schema's attributes are not the ones debug-adapter/launch-config.ts declares.
 */
import ts from 'typescript';

export const LAUNCH_START = '<!-- launch-attributes:start (generated from package.json by scripts/launch-json-doc.ts; do not edit) -->';
export const LAUNCH_END = '<!-- launch-attributes:end -->';

export interface AttributeSchema {
  readonly type?: string | readonly string[];
  readonly items?: AttributeSchema;
  readonly enum?: readonly unknown[];
  readonly anyOf?: readonly AttributeSchema[];
  readonly additionalProperties?: AttributeSchema | boolean;
  readonly default?: unknown;
  readonly description?: string;
  readonly markdownDescription?: string;
}

export type Request = 'launch' | 'attach';

export interface DebuggerManifest {
  readonly contributes?: {
    readonly debuggers?: readonly {
      readonly type?: string;
      readonly configurationAttributes?: Partial<
        Record<Request, { readonly required?: readonly string[]; readonly properties?: Readonly<Record<string, AttributeSchema>> }>
      >;
    }[];
  };
}

/** The schema's attribute names per request, in package.json's order. */
export function schemaAttributes(manifest: DebuggerManifest): Record<Request, string[]> {
  const attrs = manifest.contributes?.debuggers?.[0]?.configurationAttributes;
  return {
    launch: Object.keys(attrs?.launch?.properties ?? {}),
    attach: Object.keys(attrs?.attach?.properties ?? {}),
  };
}

/**
 * The block (markers included): one row per attribute, launch's first in package.json's order,
 * then those only attach has; a row says which requests take it. An attribute both take is
 * described once: where the two schemas differ, the row says so and gives attach's description.
 */
export function renderLaunchAttributes(manifest: DebuggerManifest): string {
  const attrs = manifest.contributes?.debuggers?.[0]?.configurationAttributes ?? {};
  const launch = attrs.launch?.properties ?? {};
  const attach = attrs.attach?.properties ?? {};
  const required = { launch: new Set(attrs.launch?.required ?? []), attach: new Set(attrs.attach?.required ?? []) };
  const names = [...Object.keys(launch), ...Object.keys(attach).filter((n) => !(n in launch))];
  const rows = names.map((name) => {
    const inLaunch = launch[name];
    const inAttach = attach[name];
    const schema = (inLaunch ?? inAttach)!;
    const requests = [
      inLaunch ? `launch${required.launch.has(name) ? ' (required)' : ''}` : '',
      inAttach ? `attach${required.attach.has(name) ? ' (required)' : ''}` : '',
    ]
      .filter((r) => r !== '')
      .join(', ');
    let description = describe(schema);
    if (inLaunch && inAttach && JSON.stringify(inLaunch) !== JSON.stringify(inAttach)) description += ` (attach: ${describe(inAttach)})`;
    return `| \`${name}\` | ${requests} | ${cell(typeOf(schema))} | ${cell(code(schema.default))} | ${cell(description)} |`;
  });
  return [LAUNCH_START, '| Attribute | Request | Type | Default | What it does |', '|---|---|---|---|---|', ...rows, LAUNCH_END].join('\n');
}

/** `doc` with its attribute block replaced by `block`; throws when the markers are missing. */
export function withLaunchAttributes(doc: string, block: string): string {
  const start = doc.indexOf(LAUNCH_START);
  const end = doc.indexOf(LAUNCH_END);
  if (start < 0 || end < start)
    throw new Error(`docs/launch-json.md has no attribute block: put the lines\n${LAUNCH_START}\n${LAUNCH_END}\nwhere the table goes`);
  return doc.slice(0, start) + block + doc.slice(end + LAUNCH_END.length);
}

/**
 * The attributes launch-config.ts declares: the own members of its LaunchArguments and
 * AttachArguments interfaces (what they inherit from DAP's request arguments left out).
 */
export function declaredAttributes(source: string, fileName = 'launch-config.ts'): Record<Request, string[]> {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const members = (name: string) => {
    const decl = file.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name);
    if (!decl) throw new Error(`${fileName} declares no interface ${name}`);
    return decl.members.filter(ts.isPropertySignature).map((m) => m.name.getText(file));
  };
  return { launch: members('LaunchArguments'), attach: members('AttachArguments') };
}

function typeOf(schema: AttributeSchema): string {
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' or ');
  if (schema.enum) return schema.enum.map((v) => code(v)).join(' · ');
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  return types
    .map((t) => {
      if (t === 'array') return `${schema.items ? typeOf(schema.items) : 'any'}[]`;
      if (t === 'object' && typeof schema.additionalProperties === 'object') return `object of ${typeOf(schema.additionalProperties)}`;
      return t;
    })
    .join(' or ');
}

function describe(schema: AttributeSchema): string {
  return schema.markdownDescription ?? schema.description ?? '';
}

function code(value: unknown): string {
  if (value === undefined) return '';
  return `\`${typeof value === 'string' ? (value === '' ? '""' : value) : JSON.stringify(value)}\``;
}

/** One table cell: on one line, its pipes escaped. */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}
