import type { ReactNode } from "react";

/**
 * A section named by its own heading (`aria-labelledby`), as the sidebars and settings panels draw
 * them: the heading's id is `${id}-title`, the test id `testId`.
 */
export function TitledSection({
  id,
  title,
  level = 3,
  className,
  titleClassName = "text-base font-semibold text-bark-900",
  testId,
  children,
}: {
  id: string;
  title: ReactNode;
  level?: 2 | 3;
  className?: string;
  titleClassName?: string;
  testId?: string;
  children: ReactNode;
}) {
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <section className={className} aria-labelledby={`${id}-title`} data-testid={testId}>
      <Heading id={`${id}-title`} className={titleClassName}>
        {title}
      </Heading>
      {children}
    </section>
  );
}
