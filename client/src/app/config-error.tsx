/** Rendered instead of the app when the runtime configuration is incomplete: the text only. */
export function ConfigError({ message }: { message: string }) {
  return <>{message}</>;
}
