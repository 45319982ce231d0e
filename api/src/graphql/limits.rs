//! Bounds on what one GraphQL document may ask for: depth, complexity (lists cost their page
//! size times their items), directives, aliases and fields. Each refusal is a clear error.

use std::collections::HashMap;

use async_graphql::{
    ErrorExtensions, Name, Positioned, ServerError, ServerResult,
    parser::types::{ExecutableDocument, FragmentDefinition, Selection, SelectionSet},
};

/// Deep enough for the standard introspection query (GraphiQL, code generators), which nests
/// `ofType` seven times; our own types are at most five levels deep.
pub const MAX_DEPTH: usize = 16;
/// Room for an admin console's page of 50 people with every field REST's `data.items` has
/// (about 1,000), or three 100-item lists; not for twenty of them.
pub const MAX_COMPLEXITY: usize = 2_500;
pub const MAX_DIRECTIVES: usize = 8;
/// The site's own documents use a handful (the REST adapter one); a field asked for twenty
/// times under different names is an attempt to multiply work.
pub const MAX_ALIASES: usize = 20;
/// Operations in one batched HTTP request.
pub const MAX_BATCH: usize = 10;
/// Top-level fields of one operation, fragments spread: the same field asked for again and
/// again needs no alias (GraphQL merges identical fields, and runs each copy).
pub const MAX_ROOT_FIELDS: usize = 20;
/// Fields of one document, each fragment counted at each of its spreads: what a document may
/// make the server resolve, and what its parsed form may hold. The site's largest asks for
/// under a hundred.
pub const MAX_FIELDS: usize = 500;

/// The complexity of a list: each of the items it may hold costs what one item asks for.
/// A page holds up to `asked` (`default` when left out, `max` at most, as its call clamps
/// them).
pub fn list_cost(asked: Option<i32>, default: i32, max: i32, child_complexity: usize) -> usize {
    let items = asked.map_or(default, |n| n.clamp(1, max));
    usize::try_from(items)
        .unwrap_or(1)
        .saturating_mul(child_complexity)
        .saturating_add(1)
}

/// A page of the news or of one's audit trail: 20 items unless asked, 50 at most.
pub fn page_cost(first: Option<i32>, child_complexity: usize) -> usize {
    list_cost(first, 20, 50, child_complexity)
}

/// A page of members or of an admin console's list: 50 unless asked, 100 at most.
pub fn long_page_cost(first: Option<i32>, child_complexity: usize) -> usize {
    list_cost(first, 50, 100, child_complexity)
}

/// A list with no page size of its own (one's sessions or organizations, an organization's
/// pending invitations), costed as a long page: a document then asks for one or two of them,
/// where twenty aliases of one once read twenty thousand invitations.
pub fn whole_list_cost(child_complexity: usize) -> usize {
    list_cost(None, 100, 100, child_complexity)
}

fn refused(message: String) -> ServerError {
    let error = async_graphql::Error::new(message).extend_with(|_, ext| ext.set("code", "BAD_USER_INPUT"));
    ServerError {
        extensions: error.extensions,
        ..ServerError::new(error.message, None)
    }
}

/// Refuses documents past [`MAX_ALIASES`], [`MAX_ROOT_FIELDS`] or [`MAX_FIELDS`]. Checked when
/// a document is parsed (`documents::parse`), before anything runs or is kept.
///
/// # Errors
/// A `BAD_USER_INPUT` error naming the limit.
pub fn check_size(document: &ExecutableDocument) -> ServerResult<()> {
    check_aliases(document)?;
    let mut fields = Fields {
        fragments: &document.fragments,
        counted: HashMap::new(),
        too_deep: false,
    };
    let mut total = 0usize;
    for (_, operation) in document.operations.iter() {
        let set = &operation.node.selection_set.node;
        let root = fields.count(set, false, 0);
        total = total.saturating_add(fields.count(set, true, 0));
        if fields.too_deep {
            return Err(refused(format!(
                "The request is nested too deeply ({MAX_NESTING} levels at most)"
            )));
        }
        if root > MAX_ROOT_FIELDS {
            return Err(refused(format!(
                "Too many top-level fields in one operation ({MAX_ROOT_FIELDS} at most)"
            )));
        }
    }
    if total > MAX_FIELDS {
        return Err(refused(format!(
            "Too many fields in one request ({MAX_FIELDS} at most)"
        )));
    }
    Ok(())
}

/// Levels of fields, fragments and spreads the counting follows (the schema's own recursion
/// limit, which runs later): a chain of fragments spreading each other cannot run the stack
/// out before that limit is met.
pub const MAX_NESTING: usize = MAX_DEPTH * 2;

/// Counts field selections, each fragment at each of its spreads (its count worked out once;
/// a fragment that spreads itself counts nothing more, and validation refuses it later).
struct Fields<'a> {
    fragments: &'a HashMap<Name, Positioned<FragmentDefinition>>,
    /// Per fragment and depth (`true`: every level): its count, or `None` while it is being
    /// counted.
    counted: HashMap<(&'a Name, bool), Option<usize>>,
    /// Whether some path went past [`MAX_NESTING`] levels.
    too_deep: bool,
}

impl<'a> Fields<'a> {
    fn count(&mut self, set: &'a SelectionSet, deep: bool, level: usize) -> usize {
        if level > MAX_NESTING {
            self.too_deep = true;
            return 0;
        }
        set.items.iter().fold(0usize, |sum, item| {
            let here = match &item.node {
                Selection::Field(field) => {
                    let below = if deep {
                        self.count(&field.node.selection_set.node, true, level + 1)
                    } else {
                        0
                    };
                    below.saturating_add(1)
                }
                Selection::InlineFragment(fragment) => {
                    self.count(&fragment.node.selection_set.node, deep, level + 1)
                }
                Selection::FragmentSpread(spread) => {
                    self.spread(&spread.node.fragment_name.node, deep, level + 1)
                }
            };
            sum.saturating_add(here)
        })
    }

    fn spread(&mut self, name: &'a Name, deep: bool, level: usize) -> usize {
        let Some((name, fragment)) = self.fragments.get_key_value(name) else {
            return 0;
        };
        match self.counted.get(&(name, deep)) {
            Some(Some(count)) => return *count,
            Some(None) => return 0,
            None => {}
        }
        self.counted.insert((name, deep), None);
        let count = self.count(&fragment.node.selection_set.node, deep, level);
        self.counted.insert((name, deep), Some(count));
        count
    }
}

fn check_aliases(document: &ExecutableDocument) -> ServerResult<()> {
    let aliases = document
        .operations
        .iter()
        .map(|(_, op)| count(&op.node.selection_set.node))
        .chain(
            document
                .fragments
                .values()
                .map(|f| count(&f.node.selection_set.node)),
        )
        .sum::<usize>();
    if aliases > MAX_ALIASES {
        return Err(refused(format!(
            "Too many aliases in one request ({MAX_ALIASES} at most)"
        )));
    }
    Ok(())
}

fn count(set: &SelectionSet) -> usize {
    set.items
        .iter()
        .map(|item| match &item.node {
            Selection::Field(field) => {
                usize::from(field.node.alias.is_some()) + count(&field.node.selection_set.node)
            }
            Selection::InlineFragment(fragment) => count(&fragment.node.selection_set.node),
            Selection::FragmentSpread(_) => 0,
        })
        .sum()
}

/// `error` with the code every refusal of a document has, `BAD_USER_INPUT`, unless it has
/// one: the parser's and the validator's errors (a field the schema lacks, an argument of the
/// wrong type, a variable never declared) come without one.
pub fn coded(mut error: ServerError) -> ServerError {
    let has_code = error
        .extensions
        .as_ref()
        .is_some_and(|ext| ext.get("code").is_some());
    if !has_code {
        error
            .extensions
            .get_or_insert_with(Default::default)
            .set("code", "BAD_USER_INPUT");
    }
    error
}

/// What async-graphql says of a document past its complexity or depth, with the limit named.
fn in_our_words(mut error: ServerError) -> ServerError {
    match error.message.as_str() {
        "Query is too complex." => {
            error.message = format!(
                "The query asks for too much at once: each list costs its page size times the fields asked of each item, {MAX_COMPLEXITY} in all at most"
            );
        }
        "Query is nested too deep." => {
            error.message = format!("The query is nested too deeply ({MAX_DEPTH} levels of fields at most)");
        }
        _ => {}
    }
    error
}

/// Gives every error the resolvers did not code the code of a refused document,
/// `BAD_USER_INPUT` (see [`coded`]): what async-graphql itself answers (validation, an `Int`
/// past 32 bits) is about the document, while the resolvers code each of theirs.
pub struct ArgumentErrors;

impl async_graphql::extensions::ExtensionFactory for ArgumentErrors {
    fn create(&self) -> std::sync::Arc<dyn async_graphql::extensions::Extension> {
        std::sync::Arc::new(ArgumentErrors)
    }
}

#[async_graphql::async_trait::async_trait]
impl async_graphql::extensions::Extension for ArgumentErrors {
    async fn request(
        &self,
        ctx: &async_graphql::extensions::ExtensionContext<'_>,
        next: async_graphql::extensions::NextRequest<'_>,
    ) -> async_graphql::Response {
        let mut response = next.run(ctx).await;
        response.errors = std::mem::take(&mut response.errors)
            .into_iter()
            .map(|error| coded(in_our_words(error)))
            .collect();
        response
    }
}
