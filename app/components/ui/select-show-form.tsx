import { Form } from "react-router";

export type SelectShowOption = { value: string; label: string };

/**
 * A list filter as a plain GET form: a labelled select and a Show button, both 44 px tall (the pulse's
 * window, the harvest log's kind). Without JavaScript the browser submits it as any form; with it,
 * the router loads the same address without a full page. The select shows `value`, the one the page
 * was drawn for, and is drawn again when it changes (back and forward included).
 */
export function SelectShowForm({
  action,
  id,
  name,
  label,
  value,
  options,
  errorId,
  testId,
}: {
  action: string;
  /** The select's id, its label's `for`. */
  id: string;
  name: string;
  label: string;
  value: string;
  options: readonly SelectShowOption[];
  /** The id of the message saying the value in the address was refused, when the page shows one. */
  errorId?: string;
  testId?: string;
}) {
  return (
    <Form method="get" action={action} className="flex flex-wrap items-end gap-3" data-testid={testId}>
      <div>
        <label htmlFor={id} className="label">
          {label}
        </label>
        <select
          id={id}
          name={name}
          defaultValue={value}
          key={value}
          aria-invalid={errorId ? true : undefined}
          aria-describedby={errorId}
          className="input min-h-11"
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="btn-secondary min-h-11">
        Show
      </button>
    </Form>
  );
}
