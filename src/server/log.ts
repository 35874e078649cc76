/** Request log lines: time and what the proxy printed (method, route, status, duration, bytes). */
export function requestLogger(write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): (line: string) => void {
  return (line) => write(`${new Date().toISOString()} ${line}`);
}
