/** A scenario declared in code: the fields of a scenario file (docs/scenario-format.md). name and description may be left out. */
export interface Scenario {
  name?: string;
  description?: string;
  models: Record<string, { context_window: number; max_output: number; [k: string]: unknown }>;
  script?: Array<Record<string, unknown>>;
  [field: string]: unknown;
}

/** One journal entry (docs/reports.md, "The journal"). */
export interface Entry {
  scenario: string;
  session: string;
  n: number;
  time_ms: number;
  gap_ms: number;
  purpose: string;
  attempt: number;
  model: string;
  max_tokens: number;
  input_tokens: number;
  output_tokens: number;
  status: number;
  kind: string;
  wire: string;
  request_id: string;
  stream?: boolean;
  fault?: string;
  retry_count?: number;
  retry_after_ms?: number;
  honored_retry_after?: boolean;
  route?: string;
  [field: string]: unknown;
}

export interface StartOptions {
  /** The scenario: an object (sent as JSON), or the path of a scenario file. */
  scenario: Scenario | string;
  /** The session the base URLs name; "test" when left out. */
  session?: string;
  /** The test's context: node:test's `t` (t.after) or vitest's (onTestFinished); the server stops when the test ends. */
  t?: { after(fn: () => unknown): void } | { onTestFinished(fn: () => unknown): void };
  /** The faultbench binary; else FAULTBENCH_BIN, else `faultbench` on PATH. */
  bin?: string;
}

export interface Faultbench extends AsyncDisposable {
  readonly name: string;
  readonly session: string;
  /** The Anthropic SDK's baseURL. */
  readonly anthropicBaseURL: string;
  /** The OpenAI SDK's baseURL (…/v1): Chat Completions and the Responses API. */
  readonly openaiBaseURL: string;
  /** @google/genai's httpOptions.baseUrl. */
  readonly geminiBaseURL: string;
  readonly journalURL: string;
  /** What serve printed on stdout; after stop, the journal as a ledger table. */
  readonly output: string;
  journal(): Promise<Entry[]>;
  requests(): Promise<Entry[]>;
  assertAttempts(n: number): Promise<void>;
  assertStatuses(...statuses: number[]): Promise<void>;
  assertHonoredRetryAfter(): Promise<void>;
  assertNoResendAfterPermanent(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts `faultbench serve --empty` on 127.0.0.1 and declares the scenario over its admin route. A refused scenario throws with its problems (field and reason; a file's with its path and line). */
export function startFaultbench(opts: StartOptions): Promise<Faultbench>;

/** Finds the binary: FAULTBENCH_BIN, else `faultbench` on PATH; throws saying how to install it. */
export function findBinary(env?: Record<string, string | undefined>): Promise<string>;

/** A status the official SDKs never retry: a 4xx other than 408, 409 and 429. */
export function isPermanent(status: number): boolean;
