import { Component, type ErrorInfo, type ReactNode } from "react";

interface Props {
  /** The page's name, kept as the heading of the sentence. */
  title: string;
  /** Where "back" goes: the page's start (a hash route, which also clears the error). */
  home: { href: string; label: string };
  /** Before trying again: forget what may have made the page fail (the data cache). */
  onRetry: () => void;
  children: ReactNode;
}

/**
 * A page that fails to render shows a sentence and a way back instead of going blank. The way back, or any change of
 * route, tries the page again: the failure may belong to one raffle's data, not to the whole app.
 */
export class PageErrorBoundary extends Component<Props, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  private readonly retry = () => {
    if (!this.state.failed) return;
    this.props.onRetry();
    this.setState({ failed: false });
  };

  /** A link to the route already shown changes no hash: the click itself tries again. */
  private readonly retryOnSameRoute = () => {
    if (window.location.hash === this.props.home.href) this.retry();
  };

  componentDidMount(): void {
    window.addEventListener("hashchange", this.retry);
  }

  componentWillUnmount(): void {
    window.removeEventListener("hashchange", this.retry);
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    // For whoever debugs the page; the person using it sees the sentence below.
    console.error("page failed to render", error, info.componentStack);
  }

  render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <main id="main">
        <h1>{this.props.title}</h1>
        <p role="alert">Something went wrong while showing this page. Nothing was sent or signed.</p>
        <p>
          <a href={this.props.home.href} onClick={this.retryOnSameRoute}>
            {this.props.home.label}
          </a>{" "}
          or reload the page to try again.
        </p>
      </main>
    );
  }
}
