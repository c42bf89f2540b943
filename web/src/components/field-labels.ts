// The API's field names in an error, as the form that sent them labels them (components/notice.tsx).

/** A form's labels by the API's field names: `{ url: 'Endpoint URL' }`. */
export type FieldLabels = Readonly<Record<string, string>>;

/**
 * The server's refusals of a field begin with its API name, quoted (`"url" must start with https://`);
 * a person filled in a form whose labels say otherwise: “Endpoint URL” must start with https://. Only
 * that first word: what the message quotes later is what was typed (`"address" has an invalid domain:
 * "reason"` keeps its "reason").
 */
export function withLabels(message: string, labels: FieldLabels): string {
  return message.replace(/^"([A-Za-z_][\w.]*)"/, (quoted, field: string) =>
    Object.hasOwn(labels, field) ? `“${labels[field]}”` : quoted,
  );
}
