//! Previews on request. A card drawn from data the service does not keep
//! (CSV sent inline) has no image by default: its
//! `image_url` and `webpage_url` answer 410. A caller that sends
//! `image_ttl_minutes` (1 to 1,440) with `visualize` or `knowledge_search`
//! asks for its picture to be kept that long: the PNG the card's
//! `image_url` would draw, and its title for the page; never its
//! `visualization_data`. Any replica answers it until it expires; a sweep
//! then removes the picture and its row.

use std::sync::Arc;

use time::{Duration, OffsetDateTime};

use super::cards::{self, Picture};
use crate::ids::{is_unkept_card, rfc3339};
use crate::model::card::KnowledgeCard;
use crate::store::PreviewRow;
use crate::{blocking, Api, ApiError, Tenant};

/// The longest a preview is kept: a day.
pub const MAX_TTL_MINUTES: u32 = 1440;

/// The size a preview is drawn at (CSS px; the PNG is twice as dense),
/// that of an `image_url` asked for without a size.
pub const SIZE: (u32, u32) = (880, 540);

/// Previews swept at once, at most (the next sweep takes the rest).
const SWEEP_BATCH: u32 = 200;

/// Keeps, for `minutes`, the picture of each of `cards` that is kept
/// nowhere else. Cards of stored files have their images already.
pub async fn keep(
    api: &Arc<Api>,
    tenant: &Tenant,
    cards: &[KnowledgeCard],
    minutes: u32,
    dark: bool,
) -> Result<(), ApiError> {
    let expires_at = rfc3339(OffsetDateTime::now_utc() + Duration::minutes(i64::from(minutes)));
    let unkept: Vec<&KnowledgeCard> = cards
        .iter()
        .filter(|c| is_unkept_card(&c.card_id))
        .collect();
    room_for(api, tenant, unkept.len()).await?;
    for card in unkept {
        let data = serde_json::to_string(&card.visualization_data).map_err(ApiError::internal)?;
        let png = cards::draw(api, data, Picture::Png, SIZE, Some(dark)).await?;
        let (t, row) = (
            tenant.clone(),
            PreviewRow {
                card_id: card.card_id.clone(),
                tenant: tenant.0.clone(),
                object: String::new(),
                title: card.title.clone(),
                expires_at: expires_at.clone(),
            },
        );
        blocking(api, move |store| {
            let object = store.objects.put_object(&t, &png)?;
            let row = PreviewRow { object, ..row };
            store.rows.put_preview(&row).inspect_err(|_| {
                // No row names the picture: it would never be swept.
                let _ = store.objects.delete_objects(&t, &[row.object.as_str()]);
            })
        })
        .await?;
    }
    Ok(())
}

/// Refuses previews past what a key may keep at once (`--max-previews`),
/// counted on the rows the store has, before anything is drawn.
async fn room_for(api: &Arc<Api>, tenant: &Tenant, more: usize) -> Result<(), ApiError> {
    let max = u64::from(api.config.max_previews);
    let t = tenant.clone();
    let kept = blocking(api, move |store| store.rows.preview_count(&t)).await?;
    if kept.saturating_add(more as u64) > max {
        return Err(ApiError::Conflict(format!(
            "this key keeps {kept} previews and may keep {max} at once (--max-previews): ask again without image_ttl_minutes, or when some have expired"
        )));
    }
    Ok(())
}

/// The preview of `card_id`, while it is kept; 410 once it has expired
/// (swept or not yet), `None` when none was asked for.
pub async fn find(api: &Arc<Api>, card_id: &str) -> Result<Option<PreviewRow>, ApiError> {
    if !is_unkept_card(card_id) {
        return Ok(None);
    }
    let id = card_id.to_owned();
    let Some(row) = blocking(api, move |store| store.rows.preview(&id)).await? else {
        return Ok(None);
    };
    if row.expires_at <= crate::ids::now_rfc3339() {
        return Err(ApiError::CardNotKept(format!(
            "The preview of card {card_id} was kept until {} and is gone: the card was drawn from data this service does not keep, and its picture was kept only as long as asked (image_ttl_minutes). Show the card by posting its visualization_data to /embed/{card_id}/, or ask again with image_ttl_minutes.",
            row.expires_at
        )));
    }
    Ok(Some(row))
}

/// The PNG a preview keeps.
pub async fn picture(api: &Arc<Api>, row: PreviewRow) -> Result<Vec<u8>, ApiError> {
    blocking(api, move |store| {
        store
            .objects
            .object(&Tenant(row.tenant.clone()), &row.object)
    })
    .await
}

/// Removes the previews that expired before `before`, pictures and rows.
/// How many.
pub async fn sweep(api: &Arc<Api>, before: OffsetDateTime) -> Result<usize, ApiError> {
    let cut = rfc3339(before);
    blocking(api, move |store| {
        let expired = store.rows.expired_previews(&cut, SWEEP_BATCH)?;
        for row in &expired {
            let tenant = Tenant(row.tenant.clone());
            store
                .objects
                .delete_objects(&tenant, &[row.object.as_str()])?;
            store.rows.drop_preview(&row.card_id)?;
        }
        Ok(expired.len())
    })
    .await
}
