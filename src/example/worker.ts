// Placeholder until the example address lands.
export default { fetch: () => new Response("not yet") };
