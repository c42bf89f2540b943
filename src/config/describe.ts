// `txmail config`: the effective configuration, field by field in the table's order, secrets masked;
// a field with no value is null (JSON would drop it), so every variable shows.
import type { Config } from '../config.js';
import { SETTINGS } from './table.js';

export function describeConfig(config: Config): Record<string, unknown> {
  return Object.assign(
    {},
    ...SETTINGS.map((setting) =>
      Object.fromEntries(
        Object.entries(setting.show(config)).map(([k, v]) => [k, v === undefined ? null : v]),
      ),
    ),
  ) as Record<string, unknown>;
}

/**
 * The text form, in the syntax of the `.env` file the configuration is also read from: one line per
 * variable as the README's table names it, its value as set or defaulted in the variable's own syntax
 * (`TXMAIL_HTTP_REQUEST_TIMEOUT=1m`), so that the lines set again give the same configuration. An unset
 * variable is blank, with a comment (`TXMAIL_RELAY_URL=  # unset`); a secret's line is a comment
 * altogether (`# TXMAIL_SECRET_KEY=***  (set; not shown)`), so that its masked text can never be read
 * back as the value.
 */
export function configLines(config: Config): string {
  return SETTINGS.map((setting) => {
    const shown = setting.text(config);
    if (shown.kind === 'value') return `${setting.env}=${shown.text}`;
    if (shown.kind === 'unset') return `${setting.env}=  # unset${shown.note ? `: ${shown.note}` : ''}`;
    return `# ${setting.env}=${shown.masked}  (set; not shown)`;
  }).join('\n');
}
