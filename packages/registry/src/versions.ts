// The order of a server's versions by semantic-versioning precedence; versions that are not semantic do not sort.
/** Semantic versions (`1.2.3`, `2.0.0-beta.1`, a leading `v` allowed), as the registry asks publishers to write them. */
const SEMVER = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

function identifiers(a: string, b: string): number {
  const left = a.split(".");
  const right = b.split(".");
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const x = left[i];
    const y = right[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const xn = /^\d+$/.test(x);
    const yn = /^\d+$/.test(y);
    if (xn && yn) {
      const d = Number(x) - Number(y);
      if (d !== 0) return Math.sign(d);
    } else if (xn !== yn) return xn ? -1 : 1;
    else if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * Orders two versions by semantic-versioning precedence: negative when `a` is older, positive when
 * newer, 0 when equal (build metadata aside). `undefined` when either is not a semantic version —
 * the registry allows others, which do not sort; then only "different" can be said.
 */
export function compareVersions(a: string, b: string): number | undefined {
  const x = SEMVER.exec(a);
  const y = SEMVER.exec(b);
  if (!x || !y) return undefined;
  for (let i = 1; i <= 3; i++) {
    const d = Number(x[i]) - Number(y[i]);
    if (d !== 0) return Math.sign(d);
  }
  const [px, py] = [x[4], y[4]];
  if (px === undefined || py === undefined) return px === py ? 0 : px === undefined ? 1 : -1;
  return identifiers(px, py);
}
