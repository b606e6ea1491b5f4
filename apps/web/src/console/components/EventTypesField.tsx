import { WEBHOOK_EVENT_LABELS, WEBHOOK_EVENT_TYPES, type WebhookEventType } from "../console-api";

/** Checkboxes of the message types an endpoint receives; the API refuses an empty choice, so the form does too. */
export function EventTypesField({
  legend,
  value,
  onChange,
}: {
  legend: string;
  value: WebhookEventType[];
  onChange: (events: WebhookEventType[]) => void;
}) {
  const toggle = (type: WebhookEventType, on: boolean) =>
    onChange(WEBHOOK_EVENT_TYPES.filter((entry) => (entry === type ? on : value.includes(entry))));
  return (
    <fieldset className="event-types">
      <legend>{legend}</legend>
      {WEBHOOK_EVENT_TYPES.map((type) => (
        <label key={type} className="check">
          <input type="checkbox" checked={value.includes(type)} onChange={(event) => toggle(type, event.target.checked)} />
          <span>
            <code>{type}</code> <span className="muted">({WEBHOOK_EVENT_LABELS[type]})</span>
          </span>
        </label>
      ))}
      {value.length === 0 && <p role="alert">Choose at least one event type.</p>}
    </fieldset>
  );
}
