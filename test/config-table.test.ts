// The README's configuration table and the one the code reads (src/config/table.ts) say the same, in
// both directions: every variable, its default and its meaning; and a default the README shows as a
// value is the default, since setting the variable to it changes nothing.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeConfig, parseConfig, type Config } from '../src/config.js';
import { SETTINGS } from '../src/config/table.js';
import { resolveRule } from '../src/delivery/destination-limits.js';

interface Row {
  variable: string;
  shownDefault: string;
  description: string;
}

/** The rows of the table under the README's "## Configuration" heading. */
function readmeRows(): Row[] {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf('\n## Configuration\n');
  expect(start).toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start + 1);
  const lines = readme.slice(start, end < 0 ? undefined : end).split('\n');
  const header = lines.indexOf('| variable | default | meaning |');
  expect(header).toBeGreaterThan(0);
  const rows: Row[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line.slice(2, -2).split(' | ');
    expect(cells, line).toHaveLength(3);
    const variable = /^`(TXMAIL_[A-Z0-9_]+)`$/.exec(cells[0]!)?.[1];
    expect(variable, `one variable per row: ${cells[0]}`).toBeDefined();
    rows.push({ variable: variable!, shownDefault: cells[1]!, description: cells[2]! });
  }
  return rows;
}

const base = { TXMAIL_HOSTNAME: 'mail.example.com', TXMAIL_HTTP_PORT: '8080' };

describe('the configuration table', () => {
  const rows = readmeRows();
  const byName = new Map(rows.map((row) => [row.variable, row]));

  // With the same variables in the same order on both sides, comparing each table entry with its row
  // covers both directions.
  it('has a README row for every variable, in the same order', () => {
    expect(rows.length).toBeGreaterThan(40);
    expect(rows.map((row) => row.variable)).toEqual(SETTINGS.map((s) => s.env));
  });

  it.each(SETTINGS.map((s) => [s.env, s] as const))(
    '%s: the README shows the default and the meaning of the table',
    (env, setting) => {
      const row = byName.get(env);
      expect(row, `README has no row for ${env}`).toBeDefined();
      expect(row!.shownDefault).toBe(setting.shownDefault);
      expect(row!.description).toBe(setting.description);
    },
  );

  // A default shown as one value (`10m`, `test.<TXMAIL_HOSTNAME>`) must be what leaving the variable
  // unset gives; the others are words ("unset", "machine host name").
  const valueDefaults = rows.filter((row) => /^`[^`]+`$/.test(row.shownDefault));

  it('shows most defaults as values', () => {
    // The rest are "unset" (a token, a relay, an operator's address) or computed from other settings.
    expect(valueDefaults.length / rows.length).toBeGreaterThan(0.75);
  });

  it.each(valueDefaults.map((row) => [row.variable, row.shownDefault] as const))(
    '%s set to its README default %s reads as leaving it unset',
    (variable, shown) => {
      const value = shown.slice(1, -1).replace(/<(TXMAIL_[A-Z0-9_]+)>/g, (_, name: string) => {
        const v = (base as Record<string, string>)[name];
        if (v === undefined) throw new Error(`no value in this test for ${name}`);
        return v;
      });
      const unset = parseConfig(base);
      const set = parseConfig({ ...base, [variable]: value });
      if (variable === 'TXMAIL_DESTINATION_LIMITS') {
        // Kept as the overrides given; what counts is the rule each destination gets.
        for (const key of ['mx:mx.example.com', 'relay:relay.example.com']) {
          expect(resolveRule(set.destinationRules, key)).toEqual(resolveRule(unset.destinationRules, key));
        }
        expect({ ...set, destinationRules: {} }).toEqual({ ...unset, destinationRules: {} });
      } else {
        expect(set).toEqual(unset);
      }
    },
  );

  it('sets every field of Config from exactly one variable, and txmail config shows each', () => {
    const fields = SETTINGS.flatMap((s): readonly (keyof Config)[] => s.fields);
    expect(new Set(fields).size).toBe(fields.length);
    const config = parseConfig(base);
    expect([...fields].sort()).toEqual(Object.keys(config).sort());
    expect(Object.keys(describeConfig(config)).sort()).toEqual([...fields].sort());
  });

  it('names the variable in a bad value of every kind', () => {
    // The values no variable of the table accepts; every variable is named when it refuses one.
    const refused = SETTINGS.filter((s) => {
      try {
        parseConfig({ ...base, [s.env]: '<not a value>' });
        return false;
      } catch (err) {
        expect((err as Error).message.startsWith(`${s.env}: `), String(err)).toBe(true);
        return true;
      }
    });
    // Every one: the listeners' addresses too (an IP address or a host name).
    expect(SETTINGS.filter((s) => !refused.includes(s)).map((s) => s.env)).toEqual([]);
  });
});
