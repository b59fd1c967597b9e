/**
 * A background job on a timer: `run` every `intervalSeconds` (0 = never; the caller can still run it by hand),
 * never two runs at once (a tick that finds one running is skipped), the timer unref'd so it never keeps the
 * process alive; a failed run is logged as `failure` and the next tick runs as usual. `stop` clears the timer and
 * waits for a run in progress. Used by housekeeping and the webhook worker.
 */
export function intervalJob(deps: {
  intervalSeconds: number;
  run: () => Promise<unknown>;
  failure: string;
  log: (msg: string, err?: unknown) => void;
}) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  return {
    start() {
      if (timer || deps.intervalSeconds <= 0) return;
      timer = setInterval(() => {
        if (running) return;
        running = deps
          .run()
          .catch((err: unknown) => deps.log(deps.failure, err))
          .finally(() => (running = null));
      }, deps.intervalSeconds * 1000);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
