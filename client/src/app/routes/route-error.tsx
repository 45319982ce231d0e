import { Component, type ErrorInfo, type ReactNode } from 'react';

type Props = { children: ReactNode; /** A new value (the path) clears a shown error. */ resetKey: string };
type State = { error: unknown; resetKey: string };

/**
 * Last-resort screen when a page throws while rendering (for example a lazy chunk that failed
 * to load after a deploy). Navigating elsewhere tries again.
 */
export class RouteErrorBoundary extends Component<Props, State> {
  state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error ?? new Error('Unknown error') };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('A page failed to render', error, info.componentStack);
  }

  render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="mx-auto max-w-xl px-4 py-20 text-center">
        <h1 className="text-3xl font-bold text-ink-900">Something went wrong</h1>
        <p className="mt-4 text-ink-600">An unexpected error occurred.</p>
        <a href="/" className="mt-8 inline-block rounded-lg bg-indigo-700 px-5 py-3 font-semibold text-white hover:bg-indigo-800">
          Reload the home page
        </a>
      </div>
    );
  }
}
