import { richText } from "@raffle/db/rich-text";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { descriptionPlain } from "../../lib/description";
import { explain } from "../../lib/messages";
import type { Raffle } from "../console-api";
import { useConsole } from "../console-context";
import { fieldErrorsOf, invalidProps } from "../field-errors";

/**
 * What players see of a raffle on its page: title, description (paragraphs, stored as the spec's rich-text document)
 * and picture. The platform holds these; nothing goes on chain, so no wallet is asked.
 */
export function PlayerPageForm({ raffle, idPrefix }: { raffle: Raffle; idPrefix: string }) {
  const { client } = useConsole();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(raffle.title);
  const [description, setDescription] = useState(descriptionPlain(raffle.description));
  const [imageUrl, setImageUrl] = useState(raffle.imageUrl ?? "");
  const save = useMutation({
    mutationFn: () =>
      client.updateRaffle(raffle.id, {
        title: title.trim(),
        // Blank lines the merchant typed between paragraphs are not paragraphs of their own.
        description: richText(
          description
            .split("\n")
            .map((line) => line.trim())
            .filter(Boolean)
            .join("\n"),
        ),
        imageUrl: imageUrl.trim(),
      }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["console", "raffles"] }),
  });

  const errors = fieldErrorsOf(save.error);
  const fieldError = (field: string) =>
    errors[field] && (
      <span id={`${idPrefix}-${field}-error`} className="field-error">
        {errors[field]}
      </span>
    );

  return (
    <form
      className="stacked"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <label>
        Title
        <input
          value={title}
          maxLength={255}
          required
          onChange={(event) => setTitle(event.target.value)}
          {...invalidProps(errors, "title", `${idPrefix}-title-error`)}
        />
        {fieldError("title")}
      </label>
      <label>
        Description
        <textarea
          value={description}
          rows={4}
          maxLength={3_000}
          onChange={(event) => setDescription(event.target.value)}
          {...invalidProps(errors, "description", `${idPrefix}-description-error`, `${idPrefix}-description-help`)}
        />
        {fieldError("description")}
      </label>
      <p id={`${idPrefix}-description-help`} className="muted">
        One paragraph per line. Players see it under the title.
      </p>
      <label>
        Picture URL (optional)
        <input
          value={imageUrl}
          type="url"
          inputMode="url"
          placeholder="https://"
          onChange={(event) => setImageUrl(event.target.value)}
          {...invalidProps(errors, "imageUrl", `${idPrefix}-imageUrl-error`)}
        />
        {fieldError("imageUrl")}
      </label>
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          Save player page
        </button>
      </div>
      {save.isSuccess && <p role="status">Saved: players see it on the raffle's page within a few seconds.</p>}
      {save.error && (
        <p role="alert">{Object.keys(errors).length > 0 ? "The player page was not saved: fix the fields marked above." : explain(save.error)}</p>
      )}
    </form>
  );
}
