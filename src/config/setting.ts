// One row of the configuration table (table.ts): an environment variable, the Config field it sets,
// how its text is parsed, its default, how `txmail config` shows it and the README's words for it.
import type { Config } from '../config.js';
import { numberText } from '../number-text.js';
import type { Kind } from './kinds.js';

/**
 * What `txmail config` prints of a variable: its text, which set again gives the same configuration;
 * that nothing is set (with what that means, where it means more than a default); or, for a secret,
 * a masked text that must never be read back as the value.
 */
export type ShownText =
  { kind: 'value'; text: string } | { kind: 'unset'; note?: string } | { kind: 'hidden'; masked: string };

/** A field read from a variable earlier in the table (defaults made from other values). */
export type Earlier = <K extends keyof Config>(field: K) => Config[K];

export interface Setting<K extends keyof Config = keyof Config> {
  readonly env: string;
  readonly fields: readonly K[];
  /** The values of the fields from the variable's text (trimmed; undefined when unset or blank). */
  read(text: string | undefined, earlier: Earlier): Pick<Config, K>;
  /** The values as `txmail config --json` prints them: secrets masked. */
  show(config: Config): Record<K, unknown>;
  /** The variable's text for the values, as `txmail config` prints it (ShownText). */
  text(config: Config): ShownText;
  /** The README's default column. */
  readonly shownDefault: string;
  /** The README's meaning column. */
  readonly description: string;
}

interface Spec<T> {
  env: string;
  kind: Kind<T>;
  /**
   * The text read when the variable is unset, parsed like a set value: literal, or made from fields of
   * variables earlier in the table.
   */
  default?: string | ((earlier: Earlier) => string);
  /** The value when the variable is unset and there is no default text. */
  unset?: () => T;
  /** The README's default column, when it is not the default text in backticks. */
  shown?: string;
  /** What `txmail config` prints instead of the value (secrets). */
  mask?: (value: T) => unknown;
  /** What the variable's being unset means, where that is more than a default (`txmail config`). */
  unsetNote?: string;
  /**
   * The value written in the variable's own syntax (`10m`, `256M`, `plan=N,…`); without it a string
   * is itself, a number or boolean its digits or word, a list its items comma-separated.
   */
  text?: (value: T) => string;
  /** The README's meaning column; a list is joined with spaces (to keep source lines short). */
  description: string | string[];
}

/** A variable that sets one field. */
export function variable<K extends keyof Config>(spec: Spec<Config[K]> & { field: K }): Setting<K> {
  const { field, mask } = spec;
  return {
    ...common(spec),
    fields: [field],
    read: (text, earlier) => ({ [field]: value(spec, text, earlier) }) as Pick<Config, K>,
    show: (config) => ({ [field]: mask ? mask(config[field]) : config[field] }) as Record<K, unknown>,
    text: (config) => {
      const v = config[field];
      if (v === undefined || v === null) return { kind: 'unset', note: spec.unsetNote };
      const text = spec.text ? spec.text(v) : shownText(v);
      if (text === '') return { kind: 'unset', note: spec.unsetNote };
      const masked = mask ? shownText(mask(v)) : text;
      return masked === text ? { kind: 'value', text } : { kind: 'hidden', masked };
    },
  };
}

/** A variable that sets several fields (TXMAIL_SOURCE_IPS: the addresses and their warm-up days). */
export function variables<K extends keyof Config>(
  fields: K[],
  spec: Omit<Spec<Pick<Config, K>>, 'mask' | 'text'> & { text: (values: Pick<Config, K>) => string },
): Setting<K> {
  const show = (config: Config) => Object.fromEntries(fields.map((f) => [f, config[f]])) as Pick<Config, K>;
  return {
    ...common(spec),
    fields,
    read: (text, earlier) => value(spec, text, earlier),
    show,
    text: (config) => {
      const text = spec.text(show(config));
      return text === '' ? { kind: 'unset' } : { kind: 'value', text };
    },
  };
}

/** The text of a plain value: a string itself, a number or boolean as written, a list comma-separated. */
function shownText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (Array.isArray(v)) return v.map((item) => shownText(item)).join(',');
  if (typeof v === 'number') return numberText(v);
  if (typeof v === 'string' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

function value<T>(spec: Spec<T>, text: string | undefined, earlier: Earlier): T {
  if (text !== undefined) return spec.kind(text, spec.env);
  if (spec.default !== undefined) {
    return spec.kind(typeof spec.default === 'string' ? spec.default : spec.default(earlier), spec.env);
  }
  if (spec.unset) return spec.unset();
  throw new Error(`${spec.env}: neither a default nor a value when unset`);
}

function common<T>(spec: Spec<T>): Pick<Setting, 'env' | 'shownDefault' | 'description'> {
  const literal = typeof spec.default === 'string' && spec.default !== '' ? `\`${spec.default}\`` : undefined;
  const shownDefault = spec.shown ?? literal;
  if (shownDefault === undefined) throw new Error(`${spec.env}: say how the README shows its default`);
  const description = Array.isArray(spec.description) ? spec.description.join(' ') : spec.description;
  return { env: spec.env, shownDefault, description };
}
