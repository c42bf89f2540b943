// The words of a refused request's schema errors (src/http/errors.ts describeSchemaError): a person's
// sentence about the field, never Ajv's own ("must NOT have fewer than 1 items").
import { describe, expect, it } from 'vitest';
import { describeSchemaError } from '../../src/http/errors.js';

const error = (keyword: string, limit: number, instancePath = '/events') => [
  { keyword, instancePath, params: { limit }, message: `must NOT have fewer than ${limit} whatever` },
];

describe('describeSchemaError', () => {
  it('says an empty list or text as such', () => {
    expect(describeSchemaError(error('minItems', 1))).toBe('"events" must have at least one item');
    expect(describeSchemaError(error('minLength', 1, '/token'))).toBe('"token" must not be empty');
  });

  it('says a longer minimum as a number', () => {
    expect(describeSchemaError(error('minItems', 3))).toBe('"events" must have at least 3 items');
    expect(describeSchemaError(error('minLength', 10, '/password'))).toBe(
      '"password" must be at least 10 characters',
    );
  });
});

describe('a wrong type', () => {
  const typeError = (type: unknown, instancePath = '/content_retention_days') => [
    { keyword: 'type', instancePath, params: { type }, message: 'must be whatever' },
  ];

  it('says one type with its article, and several as a list', () => {
    expect(describeSchemaError(typeError('string', '/name'))).toBe('"name" must be a string');
    expect(describeSchemaError(typeError('integer'))).toBe('"content_retention_days" must be an integer');
    expect(describeSchemaError(typeError('integer,null'))).toBe(
      '"content_retention_days" must be an integer or null',
    );
    expect(describeSchemaError(typeError(['string', 'array', 'null'], '/tags'))).toBe(
      '"tags" must be a string, an array or null',
    );
  });
});
