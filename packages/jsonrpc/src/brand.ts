// The brand every error class of the stack carries, so that `instanceof` and `isInstance` work
// across two installed copies of this package and `name` survives a minifier.

const BRANDS = Symbol.for("@mcp/jsonrpc/error-brands");

type Branded = { [BRANDS]?: readonly string[] };

function brandsOf(ctor: unknown): string[] {
  const brands: string[] = [];
  let current: unknown = ctor;
  while (typeof current === "function") {
    const brand = (current as { brand?: unknown }).brand;
    if (Object.hasOwn(current, "brand") && typeof brand === "string") brands.push(brand);
    current = Object.getPrototypeOf(current);
  }
  return brands;
}

/**
 * Brands `error` and names it. The name is the class's own brand, not `ctor.name`: a minifying
 * bundler renames classes, and `err.name === "TransportClosedError"` must hold in a bundle too.
 * A subclass written elsewhere without a brand of its own keeps its class name.
 */
export function stamp(error: Error, ctor: { name: string; brand?: string }): void {
  Object.defineProperty(error, BRANDS, { value: Object.freeze(brandsOf(ctor)), enumerable: false });
  error.name = Object.hasOwn(ctor, "brand") ? ctor.brand! : ctor.name;
}

export function hasBrand(ctor: { brand?: string }, value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (!Object.hasOwn(ctor, "brand")) {
    // A subclass written elsewhere without its own brand: plain prototype check.
    return Function.prototype[Symbol.hasInstance].call(ctor, value);
  }
  const brands = (value as Branded)[BRANDS];
  return Array.isArray(brands) && brands.includes(ctor.brand);
}
