// The commands as data: each one's name and arguments, flags, help and handler (whose code it imports when it runs),
// registered with commander in the order they are listed, which is the order `mcp --help` shows.
import { type Command, Option } from "commander";
import type { GlobalOptions } from "./session.js";

/** What a handler gets besides its arguments: its own options, and every option with the program's. */
export interface Call<O = unknown> {
  options: O;
  globals: GlobalOptions;
}

/**
 * A flag: its flags and help, then how its value is read (a commander parser) or its default (a
 * string); or a commander {@link Option} for the rest (hidden, choices).
 */
export type Flag =
  [flags: string, description: string, parse?: ((value: string, previous: never) => unknown) | string] | Option;

/** A command, as commander would be told it one call at a time. */
export interface CommandSpec {
  /** Its name and arguments as commander reads them: `call <tool> [args...]`. */
  name: string;
  description: string;
  alias?: string;
  /** Not in the parent's help. */
  hidden?: boolean;
  /** Run when the parent is given no subcommand. */
  isDefault?: boolean;
  flags?: Flag[];
  /** Help after commander's own (examples, notes). */
  help?: string;
  /** Runs the command with its arguments (a variadic one as a list); resolves with the exit code. */
  run?: (call: Call<never>, ...args: never[]) => Promise<number>;
  subcommands?: CommandSpec[];
}

/**
 * A handler that imports its module when it runs (so the entry stays small) and calls its export
 * `name` with every option, the command's arguments, then the command's own options.
 */
export function lazy<M>(load: () => Promise<M>, name: keyof M): NonNullable<CommandSpec["run"]> {
  return async ({ globals, options }, ...args) =>
    ((await load())[name] as (...all: unknown[]) => Promise<number>)(globals, ...args, options);
}

/** Adds each command to `parent`, its handler given to `run` when it is the one on the command line. */
export function addCommands(parent: Command, specs: CommandSpec[], run: (task: () => Promise<number>) => void): void {
  for (const spec of specs) {
    const command = parent.command(spec.name, { hidden: spec.hidden === true, isDefault: spec.isDefault === true });
    if (spec.alias) command.alias(spec.alias);
    command.description(spec.description);
    addFlags(command, spec.flags ?? []);
    if (spec.help) command.addHelpText("after", spec.help);
    const handler = spec.run;
    if (handler)
      command.action((...params: unknown[]) => {
        const self = params.pop() as Command;
        const call = { options: params.pop(), globals: self.optsWithGlobals<GlobalOptions>() };
        run(() => handler(call as Call<never>, ...(params as never[])));
      });
    addCommands(command, spec.subcommands ?? [], run);
  }
}

/** Adds the flags to a command, in order. */
export function addFlags(command: Command, flags: Flag[]): Command {
  // commander takes a parser or a default in the same place (none: no default, as without it).
  for (const flag of flags)
    if (flag instanceof Option) command.addOption(flag);
    else command.option(flag[0], flag[1], flag[2] as string | undefined);
  return command;
}
