// The dashboard's errors name a form's fields by their labels (web/src/components/field-labels.ts).
import { describe, expect, it } from 'vitest';
import { withLabels } from '../../web/src/components/field-labels.js';

describe('withLabels', () => {
  const labels = { url: 'Endpoint URL', description: 'Description' };

  it('puts the label where the server quotes the field', () => {
    expect(withLabels('"url" must start with https://', labels)).toBe(
      '“Endpoint URL” must start with https://',
    );
    expect(withLabels('"description" must be at most 256 characters', labels)).toBe(
      '“Description” must be at most 256 characters',
    );
  });

  it('leaves a field the form has no label for, and quoted values, as they are', () => {
    expect(withLabels('"events" must have at least 1 item', labels)).toBe(
      '"events" must have at least 1 item',
    );
    expect(withLabels('"url" must not be "http://x y"', labels)).toBe(
      '“Endpoint URL” must not be "http://x y"',
    );
    // What the message quotes after the field is what was typed, even when it is a field's name.
    expect(withLabels('"url" has an invalid host: "description"', labels)).toBe(
      '“Endpoint URL” has an invalid host: "description"',
    );
    expect(withLabels('the field "url" is unknown', labels)).toBe('the field "url" is unknown');
    // Not a property of the object: toString is no label.
    expect(withLabels('"toString" is unknown', labels)).toBe('"toString" is unknown');
  });
});
