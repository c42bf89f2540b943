// The API's field names in an error, as the form that sent them labels them (components/notice.tsx).

/** A form's labels by the API's field names: `{ url: 'Endpoint URL' }`. */
export type FieldLabels = Readonly<Record<string, string>>;

/**
 * The server quotes the API's field names (`"url" must start with https://`); a person filled in a
 * form whose labels say otherwise: "Endpoint URL" must start with https://.
 */
export function withLabels(message: string, labels: FieldLabels): string {
  return message.replace(/"([A-Za-z_][\w.]*)"/g, (quoted, field: string) =>
    Object.hasOwn(labels, field) ? `“${labels[field]}”` : quoted,
  );
}
