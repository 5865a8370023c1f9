// A resolve hook (module.register) for the bench's "ours-no-otel": `@opentelemetry/api` cannot be
// found from `@mcp/client`, as in a program that never installed it. Everything else resolves as usual.
export async function resolve(specifier, context, next) {
  if (specifier === "@opentelemetry/api" && String(context.parentURL).includes("/packages/client/")) {
    throw Object.assign(new Error(`Cannot find package '${specifier}' (the bench hides it)`), {
      code: "ERR_MODULE_NOT_FOUND",
    });
  }
  return next(specifier, context);
}
