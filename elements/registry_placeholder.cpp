// Element readers register themselves in the card-family registries (see mbdyn-like/model).
namespace mbl::elements {}
