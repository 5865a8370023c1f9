// The light shim (shim/mcp-shim) runs under macOS's /bin/bash, which is bash 3.2, and macOS's BSD
// tools. macOS cannot run here, so this reads the script for what bash 3.2 lacks and for GNU-only
// tools and flags, and pins the commands it runs to a reviewed list. Each rule is shown to catch a
// sample of its construct, so a rule that stopped matching fails here too. (The script's behaviour
// under a real bash 3.2 is checked by running the light-shim suites with MCP_SHIM_BASH set to one:
// see docs/daemon-pool.md.)
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const script = readFileSync(fileURLToPath(new URL("../shim/mcp-shim", import.meta.url)), "utf8");

interface Rule {
  id: string;
  /** What bash or tool version has it, and so why it is out. */
  why: string;
  pattern: RegExp;
  /** A line that uses the construct: the rule must flag it. */
  sample: string;
}

const RULES: Rule[] = [
  {
    id: "mapfile",
    why: "mapfile/readarray: bash 4.0",
    pattern: /\b(?:mapfile|readarray)\b/,
    sample: "mapfile -t lines <f",
  },
  {
    id: "declare-attr",
    why: "declare/local/typeset -A (4.0), -n (4.3), -g (4.2), -l/-u/-c (4.0)",
    pattern: /\b(?:declare|typeset|local)\s+(?:-[a-zA-Z]*[AnglucI][a-zA-Z]*\b)/,
    sample: "declare -A seen",
  },
  {
    id: "case-modification",
    why: "${x,,} ${x^^} ${x,} ${x^}: bash 4.0",
    pattern: /\$\{[#!]?[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?(?:\^|,)/,
    sample: "lower=${name,,}",
  },
  { id: "pipe-stderr", why: "|& : bash 4.0", pattern: /\|&/, sample: "node x |& cat" },
  { id: "coproc", why: "coproc: bash 4.0", pattern: /\bcoproc\b/, sample: "coproc nc 127.0.0.1 1" },
  {
    id: "read-flags",
    why: "read -N (4.1), read -i (4.0), a fractional read -t (4.0)",
    pattern: /\bread\b[^\n;|&]*?\s-(?:[a-zA-Z]*[Ni]\b|t\s*[0-9]*\.[0-9])/,
    sample: "IFS= read -r -t 0.5 said <&3",
  },
  {
    id: "printf-v-array",
    why: "printf -v into an array element: bash 4.1 (plain printf -v is 3.1)",
    pattern: /\bprintf\s+-v\s+[A-Za-z_][A-Za-z0-9_]*\[/,
    sample: 'printf -v parts[0] "%s" x',
  },
  { id: "wait-flags", why: "wait -n (4.3), -f (5.0), -p (5.1)", pattern: /\bwait\s+-[a-z]*[nfp]\b/, sample: "wait -n" },
  {
    id: "negative-substring",
    why: "negative substring offsets ${x: -1} (4.1 for some forms) and lengths ${x:1:-1} (4.2)",
    pattern: /\$\{[^}]*?:(?:\s+-[0-9]|\(-|[^}:-][^}:]*:\s*-[0-9])/,
    sample: "last=${line: -1}",
  },
  { id: "case-fallthrough", why: ";& and ;;& in case: bash 4.0", pattern: /;;?&/, sample: "a) x ;& b) y ;;" },
  { id: "append-both", why: "&>> : bash 4.0", pattern: /&>>/, sample: "echo x &>>log" },
  {
    id: "named-fd",
    why: "exec {fd}<>…: bash 4.1",
    pattern: /(?<![$\w])\{[A-Za-z_][A-Za-z0-9_]*\}[<>]/,
    sample: 'exec {sock}<>"/dev/tcp/127.0.0.1/$port"',
  },
  {
    id: "transform",
    why: "${x@Q} and other @ transforms: bash 4.4/5.x",
    pattern: /\$\{[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?@[QEPAKaULuk]\}/,
    sample: 'echo "${ticket@Q}"',
  },
  {
    id: "test-v",
    why: "[[ -v x ]] / test -v: bash 4.2",
    pattern: /(?:\[\[?|\btest)\s+-v\b/,
    sample: "[[ -v writer ]]",
  },
  {
    id: "new-variables",
    why: "BASHPID (4.0), EPOCHSECONDS/EPOCHREALTIME/BASH_ARGV0 (5.0), SRANDOM (5.1)",
    pattern: /\b(?:BASHPID|EPOCHSECONDS|EPOCHREALTIME|BASH_ARGV0|SRANDOM)\b/,
    sample: 'echo "$BASHPID"',
  },
  {
    id: "shopt",
    why: "shopt globstar, lastpipe, autocd, inherit_errexit, … : bash 4.0–5.x",
    pattern:
      /\bshopt\s+-s\s+(?:globstar|lastpipe|autocd|checkjobs|dirspell|direxpand|globasciiranges|inherit_errexit|localvar_\w+|assoc_expand_once|compat4\d)/,
    sample: "shopt -s lastpipe",
  },
  { id: "printf-time", why: "printf %(…)T: bash 4.2", pattern: /%\([^)]*\)T/, sample: "printf '%(%s)T' -1" },
  {
    id: "regex-match",
    why: "[[ =~ ]]: quoting of the pattern changed between 3.1 and 3.2; keep it out",
    pattern: /=~/,
    sample: "[[ $port =~ ^[0-9]+$ ]]",
  },
  { id: "local-dash", why: "local - : bash 4.4", pattern: /\blocal\s+-\s*(?:$|;)/m, sample: "local -" },
  { id: "unicode-escape", why: "$'\\u…': bash 4.2", pattern: /\$'[^']*\\[uU][0-9a-fA-F]/, sample: "x=$'\\u2713'" },
  {
    id: "brace-step",
    why: "{1..9..2} and zero-padded {01..10}: bash 4.0",
    pattern: /\{-?[0-9]+\.\.-?[0-9]+\.\.-?[0-9]+\}|\{0[0-9]+\.\./,
    sample: "for i in {01..10}; do :; done",
  },
  // GNU-only tools and flags: macOS has BSD ones.
  { id: "stat-c", why: "stat -c (BSD: stat -f)", pattern: /\bstat\s+(?:-c|--)/, sample: "stat -c %s f" },
  {
    id: "readlink-f",
    why: "readlink -f/-e/-m (BSD readlink before macOS 12.3: -n only)",
    pattern: /\breadlink\s+-[a-zA-Z]*[fem]/,
    sample: 'readlink -f "$0"',
  },
  {
    id: "sed-i",
    why: "sed -i (BSD sed needs a suffix argument, GNU takes none)",
    pattern: /\bsed\s+(?:[^\n|;]*\s)?(?:-[a-zA-Z]*i|--in-place)/,
    sample: "sed -i s/a/b/ f",
  },
  { id: "date-N", why: "date +%N (BSD date prints N)", pattern: /\bdate\b[^\n]*%N/, sample: "date +%s%N" },
  {
    id: "gnu-only-tool",
    why: "timeout, tac, nproc, setsid, flock, sha256sum, md5sum, realpath, stdbuf: GNU coreutils/util-linux, not on every macOS",
    pattern: /(?:^|[\s;|&(`])(?:timeout|tac|nproc|setsid|flock|sha256sum|md5sum|realpath|stdbuf)\s/m,
    sample: "timeout 10 cat",
  },
  {
    id: "mktemp",
    why: "mktemp --tmpdir/-p/--suffix are GNU; BSD mktemp wants a template",
    pattern: /\bmktemp\b/,
    sample: "f=$(mktemp -p /tmp)",
  },
  {
    id: "gnu-flags",
    why: "grep -P, xargs -r, sort -V, base64 -w, find -printf, head/tail with negative counts: GNU only",
    pattern:
      /\bgrep\s+-[a-zA-Z]*P|\bxargs\s+-[a-zA-Z]*r|\bsort\s+-[a-zA-Z]*V|\bbase64\s+-w|\bfind\b[^\n]*-printf|\b(?:head|tail)\s+-[nc]\s*-[0-9]/,
    sample: "ps -e | grep -P 'x'",
  },
  {
    id: "long-options",
    why: "--long options of ps, cat, kill, cp, …: GNU only (BSD tools take short ones)",
    pattern:
      /\b(?:ps|cat|kill|cp|mv|rm|ln|ls|mkdir|head|tail|wc|tr|cut|grep|sort|uniq|env|id)\s+(?:[^\n;|&]*\s)?--[a-z]/,
    sample: "kill --signal TERM 1",
  },
];

/** The script without comments: whole-line ones and ` # …` at a line's end (never `$#` or `${#x}`). */
function code(text: string): string {
  return text
    .split("\n")
    .map((line) => (/^\s*#/.test(line) ? "" : line.replace(/\s+#(?![^"]*"[^"]*$).*$/, "")))
    .join("\n");
}

/** Every rule a text breaks, with the line. */
function findings(text: string): { id: string; line: string }[] {
  const found: { id: string; line: string }[] = [];
  for (const line of code(text).split("\n"))
    for (const rule of RULES) if (rule.pattern.test(line)) found.push({ id: rule.id, line: line.trim() });
  return found;
}

const KEYWORDS = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "case",
  "esac",
  "in",
  "for",
  "while",
  "until",
  "do",
  "done",
  "function",
  "!",
  "{",
  "}",
  "[[",
  "]]",
]);

/**
 * The words a text runs as commands: each simple command's first word (after `VAR=value`
 * assignments, and through `exec`/`command`), outside quotes and case patterns. Expansions
 * (`"${mcp[@]}"`) are left out: what they run is pinned by where they are set.
 */
function commands(text: string): Set<string> {
  const words = new Set<string>();
  // Quoted text is a word, never a command: blank it (a "…" holding $( … ) keeps that part).
  const unquoted = code(text)
    .replace(/'[^'\n]*'/g, "''")
    .replace(/"(?:[^"\\$]|\\.|\$(?!\())*"/g, '""')
    // ${…} expansions are words (`${answer%% *}` holds a space).
    .replace(/\$\{[^}]*\}/g, "$x")
    .replace(/\bcase\b[^\n]*?\bin\b/g, "case in")
    // case patterns: `pattern)` at a clause's start.
    .replace(/(^|;;|\bin)\s*[^\s();]+(?:\s*\|\s*[^\s();]+)*\)/gm, "$1 ");
  for (const segment of unquoted.split(
    /\n|;;|;|&&|\|\||\||(?<![<>])&(?![>\d-])|\$\(|`|\(|\)|\bthen\b|\bdo\b|\belse\b|\bif\b|\bwhile\b|\buntil\b|\{\s|!\s/,
  )) {
    const parts = segment.trim().split(/\s+/).filter(Boolean);
    let at = 0;
    while (at < parts.length && (/^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(parts[at]!) || /^[0-9]*[<>]/.test(parts[at]!)))
      at++;
    let word = parts[at];
    if (word === "exec" || word === "command") {
      const next = parts.slice(at + 1).find((part) => !/^[0-9]*[<>]/.test(part) && !part.startsWith("-"));
      if (next !== undefined) word = next;
    }
    if (word === undefined || KEYWORDS.has(word) || /^["'$]/.test(word) || word === "''" || word === '""') continue;
    words.add(word);
  }
  return words;
}

describe("the light shim's portability (macOS: bash 3.2, BSD tools)", () => {
  it.each(RULES.map((rule) => [rule.id, rule] as const))("rule %s catches its sample", (_id, rule) => {
    expect(findings(rule.sample).map((f) => f.id)).toContain(rule.id);
  });

  it("uses nothing bash 3.2 lacks and no GNU-only tool or flag", () => {
    expect(findings(script)).toEqual([]);
  });

  it("runs only bash builtins, its own functions and a reviewed list of programs (each on macOS)", () => {
    // A new program here needs checking on macOS (BSD flags) and adding with why.
    const builtins = ["set", "echo", "exit", "printf", "read", "exec", "kill", "trap", "wait", "[", ":", "case"];
    const functions = [...script.matchAll(/^([A-Za-z_][A-Za-z0-9_]*)\(\)\s*\{/gm)].map((m) => m[1]!);
    // readlink (no flags: BSD's takes only -n), cat (no flags), and our CLI (`node …/dist/bin.js`
    // or `mcp`), set in the "${mcp[@]}" array that runs it.
    const programs = ["readlink", "cat", "node", "mcp"];
    const allowed = new Set([...builtins, ...functions, ...programs]);
    const used = commands(script);
    expect(
      [...used].filter((word) => !allowed.has(word)),
      JSON.stringify([...used]),
    ).toEqual([]);
    // The list finds what it is meant to: the script's programs are seen (`cat` twice: in the
    // background and through `exec`).
    expect(used).toContain("readlink");
    expect(used).toContain("cat");
    expect(commands("exec cat <&4 3>&- 4<&-")).toEqual(new Set(["cat"]));
    expect(commands("cat <&5 >&3 2>/dev/null 3>&- &")).toEqual(new Set(["cat"]));
    // and a program added anywhere a command can stand.
    for (const snippet of [
      "x=$(timeout 5 cat)",
      "if sha256sum f; then :; fi",
      "[ -f f ] && realpath f",
      "exec 3<&- stdbuf -o0 cat",
      'while read -r l; do gsed "s/a/b/"; done',
    ])
      expect(
        [...commands(snippet)].filter((word) => !allowed.has(word)),
        snippet,
      ).toHaveLength(1);
  });
});
