// The skills of connected servers as plain rows ready for JSON (`mcp skills --json`): their
// listings only (SEP-2640), no skill file fetched.
import type { MCPManager } from "./manager.js";

/** One skill a server lists ({@link skillRows}). */
export interface SkillRow {
  server: string;
  /** The skill's name, from its entry's frontmatter. */
  name: string;
  description: string;
  /** Its `SKILL.md`'s URI. */
  uri: string;
}

/** The skills each of these connected servers lists, in the order given, from the listings alone (no skill file is read). */
export async function skillRows(manager: MCPManager, names: readonly string[]): Promise<SkillRow[]> {
  const all: SkillRow[] = [];
  for (const server of names)
    for (const { frontmatter, uri } of await manager.listSkills(server))
      all.push({ server, name: frontmatter.name, description: frontmatter.description, uri });
  return all;
}
