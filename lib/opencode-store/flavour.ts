// What tells apart the CLIs that keep OpenCode's session layout (a SQLite database of `session`, `message` and
// `part` rows, loaded through `<program> import` and read through `<program> db`): OpenCode itself and its forks
// (Kilo). Everything else in this folder is the same for each; an agent folder names its flavour and nothing more.

export interface Flavour {
  /** The writer's format name (`--session-format`, `--session-dir <format>=`), and `native.format` of calls it writes. */
  readonly format: string;
  /** What messages call the CLI (`OpenCode`). */
  readonly name: string;
  /** The program's name on PATH (`opencode`). */
  readonly program: string;
  /** The variable that names the program (a path), ahead of PATH (`ASYNCAI_LOG_OPENCODE`). */
  readonly programVariable: string;
  /** How a user gets the program (`npm install -g opencode-ai`). */
  readonly install: string;
  /** The CLI version whose formats this writes. */
  readonly version: string;
  /** Its folder under `$XDG_DATA_HOME` and `$XDG_CONFIG_HOME` (`opencode`). */
  readonly dirName: string;
  /** The database's file name in the data directory (`opencode.db`). */
  readonly databaseFile: string;
  /** The variable that names another database (`OPENCODE_DB`): absolute, or relative to the data directory. */
  readonly databaseVariable: string;
  /**
   * Whether a SQLite file of any other name is this CLI's store (its database variable may name any file);
   * a file named as another flavour's database is that flavour's.
   */
  readonly claimsOtherNames: boolean;
  /** Its global config files in `$XDG_CONFIG_HOME/<dirName>`, in the order it merges them (a later `model` wins). */
  readonly configFiles: readonly string[];
  /** The file in a git repository's common directory that caches its project id (`opencode`). */
  readonly projectCache: string;
  /** The primary agent user and assistant messages name (`build`). */
  readonly agent: string;
  /** The input format of its export document (`<program> export`) and of the writer's journal. */
  readonly exportInput: string;
}
