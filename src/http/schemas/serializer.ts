// Response schemas describe the API; they do not serialise it. Fastify would otherwise compile each into
// a fast-json-stringify function, which drops properties the schema does not list and coerces values
// to its types: a schema that lagged behind its route would silently change what clients receive,
// and the contract test could never see it. With this, every answer is JSON.stringify of what the
// handler returned, exactly as for a route without a response schema.
export function describeOnly(): (data: unknown) => string {
  return (data) => JSON.stringify(data);
}
