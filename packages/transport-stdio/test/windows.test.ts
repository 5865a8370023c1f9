// Windows rules, tested on any machine: a fake `win32` platform, fake PATH / PATHEXT and files,
// and a model of what cmd.exe and the C runtime do with the command line we build (percent
// expansion, `^` escapes and quotes, the batch file's `%*` parsed once more, CommandLineToArgvW).
// What is not tested here: a real cmd.exe (no Windows machine runs this suite).
import { win32 } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildChildEnv } from "../src/env.js";
import { signalGroup } from "../src/process-tree.js";
import { envValue, resolveWindowsCommand, spawnTarget, windowsSpawn } from "../src/windows.js";

const FILES = new Set([
  "c:\\program files\\nodejs\\npx.cmd",
  "c:\\program files\\nodejs\\node.exe",
  "c:\\quoted dir\\uvx.exe",
  "c:\\windows\\system32\\cmd.exe",
  "c:\\tools\\run.bat",
  "c:\\users\\me\\pnpm.cmd",
]);
const isFile = (path: string): boolean => FILES.has(path.toLowerCase()); // Windows file names ignore case
const ENV = {
  Path: 'C:\\Windows\\System32;C:\\Program Files\\nodejs;"C:\\Quoted Dir";C:\\Users\\me',
  PathExt: ".COM;.EXE;.BAT;.CMD",
  ComSpec: "C:\\Windows\\System32\\cmd.exe",
  VAR: "EXPANDED",
  USERNAME: "me",
};

/** cmd.exe in command-line mode: `%NAME%` of a defined variable is replaced; anything else stays. */
function percentPhase(line: string, env: Record<string, string>): string {
  let out = "";
  for (let i = 0; i < line.length;) {
    const end = line[i] === "%" ? line.indexOf("%", i + 1) : -1;
    const value = end > i ? envValue(env, line.slice(i + 1, end)) : undefined;
    if (value !== undefined) {
      out += value;
      i = end + 1;
    } else out += line[i++];
  }
  return out;
}

/** cmd.exe's second phase: `^` escapes one character outside quotes; `&|<>()` there are operators. */
function caretPhase(line: string): { text: string; operators: string[] } {
  let text = "";
  let quoted = false;
  const operators: string[] = [];
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === "^") {
      i++;
      if (i < line.length) text += line[i];
      continue;
    } else if (!quoted && "&|<>()".includes(c)) operators.push(c);
    text += c;
  }
  return { text, operators };
}

/** CommandLineToArgvW / the C runtime: how the program (node.exe behind the shim) reads its arguments. */
function parseArgv(line: string): string[] {
  const args: string[] = [];
  let i = 0;
  for (;;) {
    while (line[i] === " " || line[i] === "\t") i++;
    if (i >= line.length) return args;
    let arg = "";
    let quoted = false;
    while (i < line.length && (quoted || (line[i] !== " " && line[i] !== "\t"))) {
      if (line[i] === "\\") {
        let n = 0;
        while (line[i] === "\\") {
          n++;
          i++;
        }
        if (line[i] === '"') {
          arg += "\\".repeat(Math.floor(n / 2));
          if (n % 2 === 1) {
            arg += '"';
            i++;
          }
        } else arg += "\\".repeat(n);
      } else if (line[i] === '"') {
        if (quoted && line[i + 1] === '"') {
          arg += '"';
          i += 2;
        } else {
          quoted = !quoted;
          i++;
        }
      } else arg += line[i++];
    }
    args.push(arg);
  }
}

/** What the shim's program receives when `npx args` is started the way windowsSpawn says. */
function throughCmd(args: string[]): { received: string[]; operators: string[] } {
  const spawn = windowsSpawn("npx", args, ENV, isFile);
  expect(spawn).toMatchObject({ file: "C:\\Windows\\System32\\cmd.exe", windowsVerbatimArguments: true });
  expect(spawn.args.slice(0, 3)).toEqual(["/d", "/s", "/c"]);
  const quoted = spawn.args[3]!;
  expect(quoted.startsWith('"') && quoted.endsWith('"')).toBe(true);
  // cmd /s /c "…": the outer quotes go, then the line is parsed once.
  const first = caretPhase(percentPhase(quoted.slice(1, -1), ENV));
  const file = "C:\\Program Files\\nodejs\\npx.cmd";
  expect(first.text.startsWith(`${file} `) || first.text === file).toBe(true);
  // The shim runs `node … %*`: its arguments are parsed once more (no second percent expansion).
  const second = caretPhase(first.text.slice(file.length + 1));
  return { received: parseArgv(second.text), operators: [...first.operators, ...second.operators] };
}

describe("Windows: finding a command", () => {
  it("resolves through PATH and PATHEXT (names of either case), quoted PATH entries included", () => {
    expect(resolveWindowsCommand("npx", ENV, isFile)).toBe("C:\\Program Files\\nodejs\\npx.cmd");
    expect(resolveWindowsCommand("NPX", ENV, isFile)?.toLowerCase()).toBe("c:\\program files\\nodejs\\npx.cmd");
    expect(resolveWindowsCommand("node", ENV, isFile)).toBe("C:\\Program Files\\nodejs\\node.exe");
    expect(resolveWindowsCommand("uvx", ENV, isFile)).toBe("C:\\Quoted Dir\\uvx.exe");
    expect(resolveWindowsCommand("pnpm", { PATH: "C:\\Users\\me" }, isFile)).toBe("C:\\Users\\me\\pnpm.cmd"); // default PATHEXT
    expect(resolveWindowsCommand("C:\\tools\\run", ENV, isFile)).toBe("C:\\tools\\run.bat");
    expect(resolveWindowsCommand("npx.cmd", ENV, isFile)).toBe("C:\\Program Files\\nodejs\\npx.cmd");
    expect(resolveWindowsCommand("missing", ENV, isFile)).toBeUndefined();
    expect(resolveWindowsCommand("npx", { ...ENV, PathExt: ".EXE" }, isFile)).toBeUndefined();
  });

  it("a relative command or PATH entry is taken from the folder the server starts in, not this process's (a project's node_modules\\.bin)", () => {
    // This process runs in a repository that ships node_modules\.bin\npx.cmd and bin\server.exe;
    // the server starts in the user's home, which has neither.
    const files = new Set([
      "c:\\repo\\node_modules\\.bin\\npx.cmd",
      "c:\\repo\\bin\\server.exe",
      "c:\\program files\\nodejs\\npx.cmd",
      "c:\\users\\me\\bin\\server.exe",
    ]);
    const here = (path: string): boolean => files.has(win32.resolve("C:\\repo", path).toLowerCase());
    const env = { PATH: "node_modules\\.bin;C:\\Program Files\\nodejs", PATHEXT: ".EXE;.CMD" };
    expect(resolveWindowsCommand("npx", env, here, "C:\\Users\\me")).toBe("C:\\Program Files\\nodejs\\npx.cmd");
    expect(resolveWindowsCommand("bin\\server", env, here, "C:\\Users\\me")).toBe("C:\\Users\\me\\bin\\server.exe");
    expect(spawnTarget("npx", ["-y", "x"], env, "win32", here, "C:\\Users\\me").args.at(-1)).toContain(
      "C:\\Program^ Files\\nodejs\\npx.cmd",
    );
    // With no cwd the server starts in this process's folder, and that is where they are looked up.
    expect(resolveWindowsCommand("npx", env, here)).toBe("node_modules\\.bin\\npx.cmd");
  });

  it("spawns an .exe directly, and a .cmd or .bat through cmd.exe; POSIX is untouched", () => {
    expect(windowsSpawn("node", ["-e", "a & b"], ENV, isFile)).toEqual({
      file: "C:\\Program Files\\nodejs\\node.exe",
      args: ["-e", "a & b"],
      windowsVerbatimArguments: false,
    });
    expect(windowsSpawn("missing", ["x"], ENV, isFile)).toEqual({
      file: "missing",
      args: ["x"],
      windowsVerbatimArguments: false,
    }); // spawn reports ENOENT
    expect(windowsSpawn("pnpm", [], { PATH: "C:\\Users\\me" }, isFile).file).toBe("cmd.exe"); // no ComSpec
    expect(spawnTarget("npx", ["-y", "x&y"], ENV, "linux", isFile)).toEqual({
      file: "npx",
      args: ["-y", "x&y"],
      windowsVerbatimArguments: false,
    });
    expect(spawnTarget("npx", ["-y"], ENV, "win32", isFile).file).toBe("C:\\Windows\\System32\\cmd.exe");
  });
});

describe("Windows: arguments through cmd.exe cannot run a command", () => {
  const hostile = [
    "&calc",
    "a & b",
    "x|y",
    'a"&calc&"b',
    "%VAR%",
    "%USERNAME%x%VAR%",
    "^",
    "^^&",
    "!VAR!",
    "(a)",
    "<in",
    ">out",
    "tail\\",
    'a\\"b',
    '\\\\"',
    '""',
    "",
    " ",
    "100%",
    "a;b,c d",
    "`cmd`",
    "*?",
  ];
  it.each(hostile)("%j arrives as it was, with no operator and no variable expanded", (arg) => {
    const { received, operators } = throughCmd(["-y", arg, "last"]);
    expect(operators).toEqual([]);
    expect(received).toEqual(["-y", arg, "last"]);
  });

  it("any printable argument list arrives unchanged (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom(...'ab &|<>()^%!"\\;,*?`=-/:.xyz'.split("")), maxLength: 12 }), {
          maxLength: 5,
        }),
        (args) => {
          const { received, operators } = throughCmd(args);
          expect(operators).toEqual([]);
          expect(received).toEqual(args);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("(the model catches what the escaping prevents: escaped once, a quote lets & through the shim's %*)", async () => {
    const { escapeForCmd, quoteArgument } = await import("../src/windows.js");
    const once = `${escapeForCmd("C:\\Program Files\\nodejs\\npx.cmd")} ${escapeForCmd(quoteArgument('a"&calc'))}`;
    const first = caretPhase(percentPhase(once, ENV));
    expect(first.operators).toEqual([]);
    expect(caretPhase(first.text.slice("C:\\Program Files\\nodejs\\npx.cmd".length + 1)).operators).toEqual(["&"]);
    // and an unescaped %VAR% is expanded
    expect(percentPhase('"%VAR%"', ENV)).toBe('"EXPANDED"');
  });

  it("a line break or NUL cannot be given to a batch file: refused, naming the argument", () => {
    expect(() => windowsSpawn("npx", ["ok", "two\nlines"], ENV, isFile)).toThrow(
      /argument 2 of npx contains a line break .* cannot be passed to a batch file/,
    );
    expect(() => windowsSpawn("npx", ["a\r"], ENV, isFile)).toThrow(/line break/);
    expect(() => windowsSpawn("npx", ["a\0"], ENV, isFile)).toThrow(/NUL/);
    expect(windowsSpawn("node", ["two\nlines"], ENV, isFile).args).toEqual(["two\nlines"]); // an .exe gets it as it is
  });
});

describe("Windows: environment and process tree", () => {
  it("environment names are case-insensitive: the config's PATH replaces an inherited Path", () => {
    const env = buildChildEnv(
      { PATH: "C:\\mine" },
      false,
      { Path: "C:\\Windows", SystemRoot: "C:\\Windows", SECRET: "x" },
      "win32",
    );
    expect(env).toEqual({ PATH: "C:\\mine", SYSTEMROOT: "C:\\Windows" });
    expect(buildChildEnv(undefined, false, { Path: "C:\\Windows", pathext: ".EXE" }, "win32")).toMatchObject({
      PATH: "C:\\Windows",
      PATHEXT: ".EXE",
    });
    // POSIX names stay case-sensitive.
    expect(buildChildEnv({ path: "x" }, false, { PATH: "/bin" }, "linux")).toEqual({ PATH: "/bin", path: "x" });
  });

  it("ending a server's tree is taskkill /T /F on Windows (there are no process groups)", () => {
    const ran: string[][] = [];
    expect(signalGroup(4242, "SIGTERM", "win32", (file, args) => ran.push([file, ...args]))).toBe(true);
    expect(signalGroup(4242, "SIGKILL", "win32", (file, args) => ran.push([file, ...args]))).toBe(true);
    expect(ran).toEqual([
      ["taskkill", "/pid", "4242", "/T", "/F"],
      ["taskkill", "/pid", "4242", "/T", "/F"],
    ]);
  });
});
