import { CronTime, validateCronExpression } from "cron";
import { ValidateBy, buildMessage, type ValidationOptions } from "class-validator";

/** A raffle schedule: a cron expression the merchant worker reads the same way (the `cron` package, UTC). */
export function isCronSchedule(value: unknown): value is string {
  return typeof value === "string" && value.length <= 100 && value.trim() !== "" && validateCronExpression(value).valid;
}

export function IsCronSchedule(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: "isCronSchedule",
      validator: {
        validate: isCronSchedule,
        defaultMessage: buildMessage(
          (prefix) => `${prefix}$property must be a cron expression like "0 * * * *" (minute hour day month weekday, UTC)`,
          options,
        ),
      },
    },
    options,
  );
}

/** The next `count` runs of a valid schedule after `from`, in UTC. */
export function nextRuns(schedule: string, count: number, from = new Date()): Date[] {
  const cron = new CronTime(schedule, "UTC");
  const runs: Date[] = [];
  let after = from;
  for (let index = 0; index < count; index += 1) {
    after = cron.getNextDateFrom(after, "UTC").toJSDate();
    runs.push(after);
  }
  return runs;
}
