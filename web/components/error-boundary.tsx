import { Component, type ReactNode } from 'react';
import { statusOf } from '../lib/errors';
import { ErrorMessage } from './error-message';

interface State {
  status: number | null;
}

interface Props {
  /** A change of this value (the location) clears the error, so navigating away recovers. */
  resetKey: string;
  children: ReactNode;
}

/** Shows the error screen for the status of a failed page load instead of an empty page. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { status: null };

  static getDerivedStateFromError(error: unknown): State {
    return { status: statusOf(error) };
  }

  override componentDidUpdate(previous: Props): void {
    if (previous.resetKey !== this.props.resetKey && this.state.status !== null) this.setState({ status: null });
  }

  override render(): ReactNode {
    return this.state.status === null ? this.props.children : <ErrorMessage status={this.state.status} />;
  }
}
