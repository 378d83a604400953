/**
 * The README's settings table, generated from package.json's contributes.configuration so it cannot
 * drift: `npx tsx scripts/readme-settings.ts` rewrites the block between the markers, and
 * test/extension/readme-settings.test.ts fails when the README's block is not what this renders.
 */

export const SETTINGS_START = '<!-- settings:start (generated from package.json by scripts/readme-settings.ts; do not edit) -->';
export const SETTINGS_END = '<!-- settings:end -->';

interface SettingSchema {
  readonly type?: string;
  readonly default?: unknown;
  readonly enum?: readonly unknown[];
  readonly enumDescriptions?: readonly string[];
  readonly description?: string;
  readonly markdownDescription?: string;
}

export interface Manifest {
  readonly contributes?: { readonly configuration?: { readonly properties?: Readonly<Record<string, SettingSchema>> } };
  readonly capabilities?: { readonly untrustedWorkspaces?: { readonly restrictedConfigurations?: readonly string[] } };
}

/** The block (markers included) for a manifest: one row per setting, in package.json's order. */
export function renderSettings(manifest: Manifest): string {
  const properties = manifest.contributes?.configuration?.properties ?? {};
  const restricted = new Set(manifest.capabilities?.untrustedWorkspaces?.restrictedConfigurations ?? []);
  const rows = Object.entries(properties).map(([name, schema]) => {
    const values = schema.enum ? schema.enum.map((v) => code(v)).join(' · ') : '';
    const choices = schema.enum?.flatMap((v, i) => (schema.enumDescriptions?.[i] ? [`${code(v)}: ${schema.enumDescriptions[i]}`] : [])) ?? [];
    const description = [
      schema.markdownDescription ?? schema.description ?? '',
      ...choices,
      ...(restricted.has(name) ? ['In Restricted Mode, read from user settings only.'] : []),
    ]
      .filter((s) => s !== '')
      .join(' ');
    return `| \`${name}\` | ${values || schema.type || ''} | ${code(schema.default)} | ${cell(description)} |`;
  });
  return [SETTINGS_START, '| Setting | Values | Default | What it does |', '|---|---|---|---|', ...rows, SETTINGS_END].join('\n');
}

/** `readme` with its settings block replaced by `block`; throws when the markers are missing. */
export function withSettings(readme: string, block: string): string {
  const start = readme.indexOf(SETTINGS_START);
  const end = readme.indexOf(SETTINGS_END);
  if (start < 0 || end < start) throw new Error(`README.md has no settings block: put the lines\n${SETTINGS_START}\n${SETTINGS_END}\nwhere the table goes`);
  return readme.slice(0, start) + block + readme.slice(end + SETTINGS_END.length);
}

function code(value: unknown): string {
  if (value === undefined) return '';
  return `\`${typeof value === 'string' ? (value === '' ? '""' : value) : JSON.stringify(value)}\``;
}

/** One table cell: on one line, its pipes escaped. */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}
